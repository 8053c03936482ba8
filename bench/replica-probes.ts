import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Pool } from 'undici';

/** How long the probes wait for the clusters of a dead replica: well past the 35 s goal. */
export const recoveryTimeoutMs = 60_000;
const since = (from: number) => Math.round(performance.now() - from);

/** `each` over `items`, at most `size` at a time, results in order. */
export async function inBatches<T, R>(
  items: T[],
  size: number,
  each: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await each(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/**
 * Asks every cluster through the balancer, round after round, until each has answered 200 once: when the
 * last one did, in ms after `from`. Refusals are not waited out here: this is the operator's probe, not a client.
 */
export async function everyClusterAnswers(pool: Pool, ids: string[], cookie: string, from: number) {
  const pending = new Set(ids);
  let rounds = 0;
  while (pending.size > 0 && performance.now() - from < recoveryTimeoutMs) {
    rounds += 1;
    await inBatches([...pending], 32, async (id) => {
      const res = await pool
        .request({ method: 'GET', path: `/c/${id}/api/health`, headers: { cookie }, headersTimeout: 5_000 })
        .catch(() => undefined);
      await res?.body.text().catch(() => '');
      if (res?.statusCode === 200) pending.delete(id);
    });
    if (pending.size > 0) await sleep(100);
  }
  return { ms: since(from), rounds, unanswered: pending.size };
}

/** Which replica holds each cluster's tunnel, by the directory in Redis (replica URL or ''). */
export const holders = async (redis: Redis, ids: string[]) =>
  (await redis.mget(ids.map((id) => `bnc:tunnel:${id}`))).map((url) => url ?? '');

/** Until Redis names a survivor as the holder of every cluster the dead replica held: ms after `from`. */
export async function reclaimed(redis: Redis, ids: string[], dead: string, from: number): Promise<number> {
  while (performance.now() - from < recoveryTimeoutMs) {
    const now = await holders(redis, ids);
    if (now.every((url) => url && url !== dead)) return since(from);
    await sleep(100);
  }
  return -1;
}
