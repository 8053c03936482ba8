import { describe, expect, it } from 'vitest';
import { applyPatch, type TableRow, type TableWindow } from './table-patch.ts';

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
