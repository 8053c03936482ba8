import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@binnacle/testkit';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteTimelineStore } from './store/sqlite-store.ts';
import type { NewTimelineEvent, TimelineEvent } from './types.ts';
import { TimelineWriter } from './writer.ts';

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

let n = 0;
const entry = (name: string): NewTimelineEvent => {
  n += 1;
  return {
    key: `k${n}`,
    timestamp: new Date(Date.UTC(2026, 11, 1, 10, 0, n)).toISOString(),
    source: 'informer',
    eventType: 'update',
    kind: 'ConfigMap',
    group: '',
    namespace: 'shop',
    name,
  };
};

/** A real SQLite store, and a second connection to its file that can make it refuse inserts, as a full disk. */
async function refusingStore() {
  const dir = await mkdtemp(join(tmpdir(), 'timeline-writer-'));
  dirs.push(dir);
  const path = join(dir, 'timeline.db');
  const store = await SqliteTimelineStore.open({ path, retentionMs: 3_600_000, maxBytes: 1 << 30 });
  const other = new Database(path);
  cleanups.push(() => store.close());
  cleanups.push(() => {
    other.close();
  });
  return {
    store,
    refuse: () =>
      other.exec(
        "create trigger refuse before insert on timeline_events begin select raise(abort, 'disk I/O error'); end",
      ),
    accept: () => other.exec('drop trigger refuse'),
  };
}

describe('the timeline writer', () => {
  it('streams at once what the store refuses, retries, stores it in order, and counts what found no room', async () => {
    const { store, refuse, accept } = await refusingStore();
    const published: TimelineEvent[] = [];
    const lost: string[] = [];
    const logs: { level: string; message: string }[] = [];
    let stored = 0;
    const writer = new TimelineWriter(
      store,
      {
        publish: (events) => published.push(...events),
        stored: (kept) => {
          stored += kept;
        },
        unstored: (event) => lost.push(event.name),
      },
      { latestSeq: 0, backlogLimit: 3, log: (level, message) => logs.push({ level, message }) },
    );
    cleanups.push(() => writer.close());

    await writer.write([entry('before')]);
    expect(published.map((e) => [e.seq, e.name])).toEqual([[1, 'before']]);

    refuse();
    await writer.write([entry('a'), entry('b')]);
    await writer.write([entry('c'), entry('d')]);
    // Streamed at once, each under the seq it keeps; the backlog holds three, the fourth is counted.
    expect(published.map((e) => [e.seq, e.name])).toEqual([
      [1, 'before'],
      [2, 'a'],
      [3, 'b'],
      [4, 'c'],
      [5, 'd'],
    ]);
    expect(lost).toEqual(['d']);
    expect(writer.backlog(2).map((e) => e.name)).toEqual(['b', 'c']);
    expect(writer.health()).toMatchObject({
      state: 'failing',
      error: 'disk I/O error',
      backlog: 3,
      storeErrors: 1,
      unstored: 1,
    });
    // A retry comes on the probe schedule, and fails again while the store refuses.
    await waitUntil('a retry', () => Promise.resolve(writer.health().attempts >= 2), { timeoutMs: 5_000 });
    expect(writer.health()).toMatchObject({ state: 'failing', backlog: 3 });

    accept();
    await waitUntil('the backlog stored', () => Promise.resolve(writer.health().state === 'ok'), {
      timeoutMs: 10_000,
    });
    expect(writer.health()).toMatchObject({ backlog: 0, unstored: 1, attempts: 0 });
    const kept = await store.query({ limit: 10, order: 'recorded' });
    expect(kept.map((e) => [e.seq, e.name])).toEqual([
      [1, 'before'],
      [2, 'a'],
      [3, 'b'],
      [4, 'c'],
    ]);
    expect(stored).toBe(4);
    // Nothing is streamed twice, and numbering goes on above the entry that found no room.
    await writer.write([entry('after')]);
    expect(published.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.stats()).latestSeq).toBe(6);
    // One line when the episode starts, one when the backlog fills, one when it ends: not one per retry.
    expect(logs.map((l) => l.level)).toEqual(['error', 'error', 'info']);
  });

  it('holds new entries behind the backlog, so the store never gets a seq before a lower one', async () => {
    const { store, refuse, accept } = await refusingStore();
    const writer = new TimelineWriter(
      store,
      { publish: () => undefined, stored: () => undefined, unstored: () => undefined },
      { latestSeq: 0 },
    );
    cleanups.push(() => writer.close());
    refuse();
    await writer.write([entry('first')]);
    accept();
    // The store accepts again, but the retry has not come: this one waits behind 'first'.
    await writer.write([entry('second')]);
    expect(await store.query({ limit: 10 })).toEqual([]);
    await waitUntil('the backlog stored', () => Promise.resolve(writer.health().state === 'ok'), {
      timeoutMs: 10_000,
    });
    expect((await store.query({ limit: 10, order: 'recorded' })).map((e) => e.name)).toEqual([
      'first',
      'second',
    ]);
  });

  it('on close, tries the backlog once more and counts what the store still refuses', async () => {
    const { store, refuse } = await refusingStore();
    const logs: string[] = [];
    const writer = new TimelineWriter(
      store,
      { publish: () => undefined, stored: () => undefined, unstored: () => undefined },
      { latestSeq: 0, log: (_level, message) => logs.push(message) },
    );
    refuse();
    await writer.write([entry('x'), entry('y')]);
    await writer.close();
    expect(writer.health()).toMatchObject({ backlog: 0, unstored: 2 });
    expect(logs.at(-1)).toMatch(/stops while the timeline store refuses writes/);
  });
});
