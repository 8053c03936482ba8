import { describe, expect, it } from 'vitest';
import { allPorts, formatPorts, intersectPorts, noPorts, overlaps, portRange, unionPorts } from './ports.ts';

describe('port sets', () => {
  it('merges overlapping and adjacent ranges and keeps gaps', () => {
    expect(unionPorts(portRange(80, 81), portRange(82, 90))).toEqual([[80, 90]]);
    expect(unionPorts(portRange(100), portRange(80, 81))).toEqual([
      [80, 81],
      [100, 100],
    ]);
    expect(unionPorts(portRange(80, 100), portRange(90, 95))).toEqual([[80, 100]]);
    expect(unionPorts(noPorts, portRange(53))).toEqual([[53, 53]]);
  });

  it('intersects range by range', () => {
    const a = unionPorts(portRange(80, 90), portRange(100, 200));
    expect(intersectPorts(a, portRange(85, 150))).toEqual([
      [85, 90],
      [100, 150],
    ]);
    expect(intersectPorts(a, portRange(91, 99))).toEqual([]);
    expect(intersectPorts(allPorts, portRange(443))).toEqual([[443, 443]]);
    expect(overlaps(a, portRange(90))).toBe(true);
    expect(overlaps(a, portRange(95))).toBe(false);
  });

  it('an inverted range is empty', () => {
    expect(portRange(81, 80)).toEqual([]);
  });

  it('formats all, none and ranges', () => {
    expect(formatPorts(allPorts)).toBe('all');
    expect(formatPorts(noPorts)).toBe('none');
    expect(formatPorts(unionPorts(portRange(80), portRange(8000, 8080)))).toBe('80, 8000-8080');
  });
});
