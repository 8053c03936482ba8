import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewTimelineEvent } from '../types.ts';
import { SqliteTimelineStore } from './sqlite-store.ts';

const dirs: string[] = [];
const stores: SqliteTimelineStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const mib = 1024 * 1024;
const week = 168 * 3_600_000;
/** What the files take on disk, measured here rather than asked of the store. */
const onDisk = (path: string) =>
  ['', '-wal', '-shm'].reduce(
    (sum, suffix) => sum + (statSync(path + suffix, { throwIfNoEntry: false })?.size ?? 0),
    0,
  );

/** A change as the recorder writes it: an update of a Deployment with a diff of a few fields. */
function change(n: number): NewTimelineEvent {
  const replicas = n % 7;
  return {
    key: `uid-${n % 500}/${n}`,
    timestamp: new Date(Date.UTC(2026, 10, 22, 10) + n * 1000).toISOString(),
    source: 'informer',
    eventType: 'update',
    kind: 'Deployment',
    group: 'apps',
    namespace: `team-${n % 23}`,
    name: `service-${n % 500}`,
    uid: `0b6d6f0e-3c1a-4d8e-9f7a-${String(n % 500).padStart(12, '0')}`,
    health: 'healthy',
    owner: n % 3 === 0 ? { kind: 'Application', name: `app-${n % 40}`, uid: `owner-${n % 40}` } : undefined,
    diff: {
      summary: `spec.replicas ${replicas} → ${replicas + 1}; image tag changed`,
      fields: [
        { path: 'spec.replicas', old: replicas, new: replicas + 1 },
        {
          path: 'spec.template.spec.containers[0].image',
          old: `registry.example.com/team/service:${n - 1}`,
          new: `registry.example.com/team/service:${n}`,
        },
        {
          path: 'metadata.annotations.deployment.kubernetes.io/revision',
          old: String(n - 1),
          new: String(n),
        },
      ],
    },
  };
}

describe('the SQLite timeline size cap', () => {
  it('holds within 10 % after every write, counting the database, WAL and shm, and keeps the newest changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'timeline-cap-'));
    dirs.push(dir);
    const path = join(dir, 'timeline.db');
    const store = await SqliteTimelineStore.open({
      path,
      retentionMs: week,
      now: () => Date.UTC(2026, 10, 23),
      maxBytes: mib,
    });
    stores.push(store);
    const sizes: number[] = [];
    // Batches of the sizes the recorder writes: single changes, watch chunks, and its largest (500).
    const batchSizes = [1, 7, 50, 500, 120, 3];
    let n = 0;
    for (let batch = 0; n < 10_000; batch += 1) {
      const size = Math.min(batchSizes[batch % batchSizes.length] ?? 1, 10_000 - n);
      const kept = await store.append(Array.from({ length: size }, () => ({ ...change(++n), seq: n })));
      expect(kept).toHaveLength(size);
      sizes.push(onDisk(path));
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1.1 * mib);
    expect(store.sizeBytes()).toBe(onDisk(path));
    const stats = await store.stats();
    expect(stats.latestSeq).toBe(10_000);
    const newest = await store.query({ limit: stats.count, order: 'recorded' });
    // What is kept is the newest changes, without a gap.
    expect(newest.map((e) => e.seq)).toEqual(
      Array.from({ length: stats.count }, (_, i) => 10_001 - stats.count + i),
    );
    expect(newest.at(-1)?.name).toBe(`service-${10_000 % 500}`);
    // …and a fair share of the cap holds them (about 0.7 KB each, the rest is indexes, WAL, shm and free pages).
    expect(stats.count).toBeGreaterThan(250);
  }, 60_000);
});
