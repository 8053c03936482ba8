import { describe, expect, it } from 'vitest';
import { applyPatch, nextWindow, type TableRow, type TableWindow } from './table-patch.ts';

const row = (uid: string, status = 'Running'): TableRow => ({
  uid,
  namespace: 'shop',
  name: uid,
  cells: [status],
  status: { text: status, tone: 'ok' },
});
const window: TableWindow = {
  kind: 'Pod',
  group: '',
  apiVersion: 'v1',
  namespaced: true,
  source: 'cache',
  columns: [{ name: 'STATUS', type: 'string', priority: 0 }],
  total: 3,
  offset: 0,
  rows: [row('a'), row('b'), row('c')],
  statuses: [{ text: 'Running', tone: 'ok', count: 3 }],
};

describe('applyPatch', () => {
  it('replaces changed rows in place when the order stands', () => {
    const next = applyPatch(window, { rows: [row('b', 'Pending')] });
    expect(next.rows.map((r) => [r.uid, r.cells[0]])).toEqual([
      ['a', 'Running'],
      ['b', 'Pending'],
      ['c', 'Running'],
    ]);
    expect(next.total).toBe(3);
  });

  it('adds, removes and reorders by the order sent, with the new totals', () => {
    const next = applyPatch(window, {
      rows: [row('aa')],
      removed: ['c'],
      order: ['a', 'aa', 'b'],
      total: 4,
      statuses: [{ text: 'Running', tone: 'ok', count: 4 }],
    });
    expect(next.rows.map((r) => r.uid)).toEqual(['a', 'aa', 'b']);
    expect(next.total).toBe(4);
    expect(next.statuses[0]?.count).toBe(4);
  });
});

describe('nextWindow', () => {
  it('keeps the window while the rows in view are well inside it', () => {
    expect(nextWindow(0, 0, 40, 50_000)).toBeUndefined();
    expect(nextWindow(0, 700, 740, 50_000)).toBeUndefined();
    expect(nextWindow(2000, 2300, 2340, 50_000)).toBeUndefined();
  });

  it('asks at once, near an edge of the window it has, for one reaching ahead the way the view moves', () => {
    expect(nextWindow(0, 760, 800, 50_000)).toEqual({ offset: 510, now: true });
    expect(nextWindow(2000, 2200, 2240, 50_000)).toEqual({ offset: 1490, now: true });
    expect(nextWindow(300, 310, 350, 50_000)).toEqual({ offset: 0, now: true });
  });

  it('asks only once the view settles when it jumped beyond the window (a scrollbar dragged)', () => {
    expect(nextWindow(0, 30_000, 30_040, 50_000)).toEqual({ offset: 29_520, now: false });
    expect(nextWindow(29_520, 100, 140, 50_000)).toEqual({ offset: 0, now: false });
  });

  it('asks for nothing past the last row or before the first', () => {
    expect(nextWindow(0, 960, 1000, 1000)).toBeUndefined();
    expect(nextWindow(49_000, 49_960, 50_000, 50_000)).toBeUndefined();
    expect(nextWindow(0, 0, 40, 50_000)).toBeUndefined();
  });
});
