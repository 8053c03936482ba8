import { describe, expect, it } from 'vitest';
import { midpoint, roundedPath } from './route-path.ts';

describe('a routed edge', () => {
  it('runs straight without corners, and rounds each corner off', () => {
    expect(
      roundedPath([
        { x: 0, y: 0 },
        { x: 100, y: 0 },
      ]),
    ).toBe('M 0 0 L 100 0');
    expect(
      roundedPath([
        { x: 0, y: 0 },
        { x: 50, y: 0 },
        { x: 50, y: 40 },
        { x: 100, y: 40 },
      ]),
    ).toBe('M 0 0 L 40 0 Q 50 0 50 10 L 50 30 Q 50 40 60 40 L 100 40');
  });

  it('finds the point halfway along its length', () => {
    expect(
      midpoint([
        { x: 0, y: 0 },
        { x: 10, y: 0 },
        { x: 10, y: 30 },
      ]),
    ).toEqual({ x: 10, y: 10 });
  });
});
