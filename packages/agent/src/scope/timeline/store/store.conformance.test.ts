import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NewTimelineEvent, TimelineEvent, TimelineStore } from '../types.ts';
import { MemoryTimelineStore } from './memory-store.ts';
import { SqliteTimelineStore } from './sqlite-store.ts';

const dirs: string[] = [];
const stores: TimelineStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** The stores' clock: the entries below are dated 2026-11-22, inside a week of it whenever the test runs. */
const testNow = () => Date.UTC(2026, 10, 23);

async function sqlitePath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'timeline-'));
  dirs.push(dir);
  return join(dir, 'timeline.db');
}

const week = 168 * 3_600_000;
const backends: [string, () => Promise<TimelineStore>][] = [
  ['memory', () => Promise.resolve(new MemoryTimelineStore(1000))],
  [
    'sqlite',
    async () =>
      SqliteTimelineStore.open({
        path: await sqlitePath(),
        retentionMs: week,
        now: testNow,
        maxBytes: 1 << 30,
      }),
  ],
];

let n = 0;
function event(fields: Partial<NewTimelineEvent> = {}): NewTimelineEvent {
  n += 1;
  return {
    key: `k${n}`,
    timestamp: new Date(Date.UTC(2026, 10, 22, 10, 0, n)).toISOString(),
    source: 'informer',
    eventType: 'update',
    kind: 'Deployment',
    group: 'apps',
    namespace: 'shop',
    name: `web-${n}`,
    uid: `uid-${n}`,
    ...fields,
  };
}

/** Numbers events on from the store's latest seq, as the recorder does (ADR 0073). */
async function append(store: TimelineStore, events: NewTimelineEvent[]): Promise<TimelineEvent[]> {
  const { latestSeq } = await store.stats();
  return store.append(events.map((e, i) => ({ ...e, seq: latestSeq + 1 + i })));
}

describe.each(backends)('timeline store conformance: %s', (_name, open) => {
  const opened = async () => {
    const store = await open();
    stores.push(store);
    return store;
  };

  it('numbers events in order and records a key once', async () => {
    const store = await opened();
    const first = await append(store, [event({ key: 'a' }), event({ key: 'b' })]);
    const again = await append(store, [event({ key: 'b' }), event({ key: 'c' })]);
    expect(first.map((e) => e.seq)).toEqual([1, 2]);
    expect(again.map((e) => [e.seq, e.name])).toEqual([[4, expect.stringMatching(/^web-/)]]);
    expect(await store.stats()).toMatchObject({ count: 3, oldestSeq: 1, latestSeq: 4, pruneFailures: 0 });
  });

  it('stores a first sync of 900 entries in one batch, keys it already holds among them, each once', async () => {
    const store = await opened();
    await append(store, [event({ key: 'sync-7' }), event({ key: 'sync-800' })]);
    const kept = await append(
      store,
      Array.from({ length: 900 }, (_, i) => event({ key: `sync-${i}` })),
    );
    const seqs = Array.from({ length: 900 }, (_, i) => i + 3);
    expect(kept.map((e) => e.seq)).toEqual(seqs.filter((seq) => seq !== 10 && seq !== 803));
    const stored = await store.query({ limit: 1000, order: 'recorded' });
    expect(stored.map((e) => e.seq)).toEqual([1, 2, ...kept.map((e) => e.seq)]);
  });

  it('spends the seq of a known key, so the next number is above every number given', async () => {
    const store = await opened();
    await append(store, [event({ key: 'once' })]);
    expect(await append(store, [event({ key: 'once' })])).toEqual([]);
    expect(await store.stats()).toMatchObject({ count: 1, oldestSeq: 1, latestSeq: 2 });
    expect((await append(store, [event()])).map((e) => e.seq)).toEqual([3]);
    expect((await store.query({ limit: 10, sinceSeq: 1, order: 'recorded' })).map((e) => e.seq)).toEqual([3]);
  });

  it('returns newest first by default, in the order recorded on request, bounded by limit', async () => {
    const store = await opened();
    await append(store, [event(), event(), event(), event()]);
    expect((await store.query({ limit: 2 })).map((e) => e.seq)).toEqual([4, 3]);
    expect((await store.query({ limit: 3, order: 'recorded' })).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await store.query({ limit: 10, sinceSeq: 2, order: 'recorded' })).map((e) => e.seq)).toEqual([
      3, 4,
    ]);
  });

  it('orders by timestamp, not by recording: a late Event, a history, one instant newest recorded first', async () => {
    const store = await opened();
    const at = (second: number, millis = 0) =>
      new Date(Date.UTC(2026, 10, 22, 11, 0, second, millis)).toISOString();
    await append(store, [
      event({ name: 'seen', timestamp: at(30, 250) }),
      // An Event says it happened before the change recorded ahead of it, and only to the second.
      event({ name: 'late-event', source: 'k8s_event', timestamp: at(30) }),
      event({ name: 'created-long-ago', source: 'historical', timestamp: at(1) }),
      event({ name: 'same-instant', timestamp: at(30, 250) }),
      event({ name: 'newest', timestamp: at(31) }),
    ]);
    const names = async (query: Parameters<TimelineStore['query']>[0]) =>
      (await store.query(query)).map((e) => e.name);
    expect(await names({ limit: 10 })).toEqual([
      'newest',
      'same-instant',
      'seen',
      'late-event',
      'created-long-ago',
    ]);
    expect(await names({ limit: 2, since: at(30) })).toEqual(['newest', 'same-instant']);
    expect(await names({ limit: 10, order: 'recorded' })).toEqual([
      'seen',
      'late-event',
      'created-long-ago',
      'same-instant',
      'newest',
    ]);
  });

  it('filters by namespace, kind, name, time, type, source, owner and name patterns alike', async () => {
    const store = await opened();
    const a = event({ namespace: 'shop', kind: 'Deployment', name: 'web' });
    const b = event({
      namespace: 'data',
      kind: 'StatefulSet',
      name: 'db',
      eventType: 'Warning',
      source: 'k8s_event',
    });
    const c = event({
      namespace: 'shop',
      kind: 'Pod',
      name: 'web-abc',
      owner: { kind: 'ReplicaSet', name: 'web-7d', uid: 'rs-1' },
    });
    const d = event({ namespace: 'kube-node-lease', kind: 'Lease', name: 'node-1' });
    const e = event({ namespace: 'shop', kind: 'ConfigMap', name: 'ingress-controller-leader-election' });
    await append(store, [a, b, c, d, e]);
    const names = async (q: Parameters<TimelineStore['query']>[0]) =>
      (await store.query({ ...q, order: 'recorded' })).map((x) => x.name);
    expect(await names({ limit: 10, namespaces: ['shop'] })).toEqual([
      'web',
      'web-abc',
      'ingress-controller-leader-election',
    ]);
    expect(await names({ limit: 10, kinds: ['statefulset', 'Pod'] })).toEqual(['db', 'web-abc']);
    expect(await names({ limit: 10, name: 'web' })).toEqual(['web']);
    expect(await names({ limit: 10, since: c.timestamp })).toEqual([
      'web-abc',
      'node-1',
      'ingress-controller-leader-election',
    ]);
    expect(await names({ limit: 10, eventTypes: ['Warning'] })).toEqual(['db']);
    expect(await names({ limit: 10, sources: ['k8s_event'] })).toEqual(['db']);
    expect(await names({ limit: 10, excludeKinds: ['lease'], excludeNames: ['leader-election'] })).toEqual([
      'web',
      'db',
      'web-abc',
    ]);
    expect(await names({ limit: 10, topLevelOnly: true, namespaces: ['shop'] })).toEqual([
      'web',
      'ingress-controller-leader-election',
    ]);
    expect(await names({ limit: 10, uids: [a.uid as string], ownerUids: ['rs-1'] })).toEqual([
      'web',
      'web-abc',
    ]);
  });

  it('keeps the event as it was recorded, diff and owner included', async () => {
    const store = await opened();
    const recorded = event({
      diff: { fields: [{ path: 'spec.replicas', old: 3, new: 5 }], summary: 'replicas 3 → 5' },
      health: 'degraded',
      reason: 'Scaled',
      message: 'up',
      count: 2,
      owner: { kind: 'Deployment', name: 'web', uid: 'd1' },
    });
    await append(store, [recorded]);
    const { key, ...fields } = recorded;
    expect(await store.query({ limit: 1 })).toEqual([{ seq: 1, ...fields }]);
  });

  it('keeps its epoch while it lives', async () => {
    const store = await opened();
    const { epoch } = await store.stats();
    await append(store, [event()]);
    expect((await store.stats()).epoch).toBe(epoch);
    expect(epoch).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('memory store', () => {
  it('keeps exactly --history-limit entries, dropping the oldest', async () => {
    const store = new MemoryTimelineStore(5);
    await append(
      store,
      Array.from({ length: 12 }, () => event()),
    );
    const kept = await store.query({ limit: 100, order: 'recorded' });
    expect(kept).toHaveLength(5);
    expect(kept.map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(await store.stats()).toMatchObject({ count: 5, oldestSeq: 8, latestSeq: 12 });
  });

  it('refuses a batch numbered out of order, keeping none of it', async () => {
    const store = new MemoryTimelineStore(5);
    await append(store, [event()]);
    await expect(
      store.append([
        { ...event(), seq: 3 },
        { ...event(), seq: 2 },
      ]),
    ).rejects.toThrow(/out of order/);
    await expect(store.append([{ ...event(), seq: 1 }])).rejects.toThrow(/out of order/);
    expect(await store.stats()).toMatchObject({ count: 1, latestSeq: 1 });
  });

  it('keeps time order while the ring drops entries recorded out of it', async () => {
    const store = new MemoryTimelineStore(4);
    const seconds = [5, 1, 9, 3, 7, 2, 8, 4, 6];
    await append(
      store,
      seconds.map((second) =>
        event({
          name: `at-${second}`,
          timestamp: new Date(Date.UTC(2026, 10, 22, 12, 0, second)).toISOString(),
        }),
      ),
    );
    // The last four recorded stay (seconds 2, 8, 4, 6), newest first by time.
    expect((await store.query({ limit: 10 })).map((e) => e.name)).toEqual(['at-8', 'at-6', 'at-4', 'at-2']);
  });

  it('keeps time order and drops the evicted when read between batches, and between none', async () => {
    const store = new MemoryTimelineStore(4);
    const at = (second: number) =>
      event({
        name: `at-${second}`,
        timestamp: new Date(Date.UTC(2026, 10, 22, 12, 0, second)).toISOString(),
      });
    expect(await store.query({ limit: 10 })).toEqual([]);
    await append(store, [at(5), at(1)]);
    expect((await store.query({ limit: 10 })).map((e) => e.name)).toEqual(['at-5', 'at-1']);
    await append(store, [at(9), at(3), at(7)]);
    expect((await store.query({ limit: 10 })).map((e) => e.name)).toEqual(['at-9', 'at-7', 'at-3', 'at-1']);
    // Batches past the capacity with no read between them: the index is brought up to date on its own.
    for (const second of [2, 8, 4, 6, 11, 10]) await append(store, [at(second)]);
    expect((await store.query({ limit: 10 })).map((e) => e.name)).toEqual(['at-11', 'at-10', 'at-6', 'at-4']);
  });

  it('starts a new epoch with every instance', async () => {
    expect((await new MemoryTimelineStore(1).stats()).epoch).not.toBe(
      (await new MemoryTimelineStore(1).stats()).epoch,
    );
  });
});

describe('sqlite store', () => {
  it('keeps events, epoch and numbering across a restart', async () => {
    const path = await sqlitePath();
    const first = await SqliteTimelineStore.open({
      path,
      retentionMs: week,
      now: testNow,
      maxBytes: 1 << 30,
    });
    await append(first, [event({ key: 'before-restart' }), event()]);
    const { epoch } = await first.stats();
    await first.close();
    const second = await SqliteTimelineStore.open({
      path,
      retentionMs: week,
      now: testNow,
      maxBytes: 1 << 30,
    });
    expect(await second.stats()).toMatchObject({ epoch, count: 2, latestSeq: 2 });
    expect(
      await append(second, [event({ key: 'before-restart' }), event({ key: 'after-restart' })]),
    ).toMatchObject([{ seq: 4 }]);
    await append(second, [event({ key: 'after-restart' })]);
    await second.close();
    const third = await SqliteTimelineStore.open({
      path,
      retentionMs: week,
      now: testNow,
      maxBytes: 1 << 30,
    });
    stores.push(third);
    expect(await third.stats()).toMatchObject({ count: 3, latestSeq: 5 });
  });

  it('deletes events older than the retention', async () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const store = await SqliteTimelineStore.open({
      path: await sqlitePath(),
      retentionMs: 3_600_000,
      maxBytes: 1 << 30,
      now: () => now,
    });
    stores.push(store);
    await append(store, [
      event({ timestamp: new Date(now - 2 * 3_600_000).toISOString() }),
      event({ timestamp: new Date(now - 60_000).toISOString(), name: 'recent' }),
    ]);
    now += 1000;
    expect(await store.prune()).toEqual({ deleted: 1 });
    expect((await store.query({ limit: 10 })).map((e) => e.name)).toEqual(['recent']);
  });

  it('deletes the oldest events on the write that takes the files past their cap, and numbering goes on', async () => {
    const maxBytes = 1024 * 1024;
    const store = await SqliteTimelineStore.open({
      path: await sqlitePath(),
      retentionMs: week,
      now: testNow,
      maxBytes,
    });
    stores.push(store);
    const big = 'x'.repeat(2000);
    for (let i = 0; i < 10; i += 1) {
      await append(
        store,
        Array.from({ length: 50 }, () => event({ message: big })),
      );
      expect(store.sizeBytes()).toBeLessThanOrEqual(maxBytes);
    }
    const stats = await store.stats();
    expect(stats.count).toBeLessThan(500);
    expect(stats.latestSeq).toBe(500);
    expect(stats.oldestSeq).toBeGreaterThan(1);
    expect((await append(store, [event()]))[0]?.seq).toBe(501);
  });

  it('counts and logs a scheduled prune that fails, and prunes again at the next turn', async () => {
    // Only the prune schedule is moved by hand; the database runs as it does.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const now = Date.UTC(2026, 10, 22, 12);
      const path = await sqlitePath();
      const reports: { message: string; detail: Record<string, unknown> }[] = [];
      const store = await SqliteTimelineStore.open({
        path,
        retentionMs: 3_600_000,
        maxBytes: 1 << 30,
        now: () => now,
        log: (message, detail) => reports.push({ message, detail }),
      });
      stores.push(store);
      await append(store, [event({ timestamp: new Date(now - 2 * 3_600_000).toISOString() })]);
      // A database that refuses deletes, as a full or read-only disk would.
      const other = new Database(path);
      other.exec(
        "create trigger refuse_deletes before delete on timeline_events begin select raise(abort, 'deletes refused'); end",
      );

      await vi.advanceTimersByTimeAsync(5 * 60_000);
      await vi.waitFor(() => expect(reports).toHaveLength(1));
      expect(reports[0]).toStrictEqual({
        message: expect.stringContaining('timeline prune failed'),
        detail: {
          err: expect.objectContaining({ message: 'deletes refused' }),
          path,
          pruneFailures: 1,
        },
      });
      expect(await store.stats()).toMatchObject({ count: 1, pruneFailures: 1 });

      other.exec('drop trigger refuse_deletes');
      other.close();
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      await vi.waitFor(async () => expect((await store.stats()).count).toBe(0));
      expect(reports).toHaveLength(1);
      expect((await store.stats()).pruneFailures).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
