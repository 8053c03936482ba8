import { describe, expect, it } from 'vitest';
import { cellText, kubectlDuration } from './tables.ts';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('kubectlDuration', () => {
  it.each([
    [-5 * s, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 30 * s, '5m30s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [7 * h + 15 * m, '7h15m'],
    [8 * h + 15 * m, '8h'],
    [47 * h, '47h'],
    [3 * d + 4 * h, '3d4h'],
    [7 * d, '7d'],
    [8 * d + 5 * h, '8d'],
    [729 * d, '729d'],
    [2 * 365 * d + 30 * d, '2y30d'],
    [3 * 365 * d, '3y'],
    [9 * 365 * d + 40 * d, '9y'],
  ])('%i ms is %s', (ms, text) => {
    expect(kubectlDuration(ms)).toBe(text);
  });
});

describe('cellText', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('prints absent values as kubectl does, numbers and strings as they are', () => {
    expect(cellText(null, now)).toBe('<none>');
    expect(cellText(3, now)).toBe('3');
    expect(cellText('1/2', now)).toBe('1/2');
  });
  it('prints moments relative to now, with the text around them', () => {
    expect(cellText({ at: '2026-11-28T11:55:00Z' }, now)).toBe('5m');
    expect(cellText({ before: '5 (', at: '2026-11-28T11:59:00Z', after: ' ago)' }, now)).toBe('5 (60s ago)');
  });
});
