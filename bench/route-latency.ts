import type { Pool } from 'undici';
import { type LoadFigures, load } from './http-load.ts';

export interface RouteLatency extends LoadFigures {
  path: string;
  /** The first request, before the agent or the store had answered it once. */
  coldMs: number;
  /** The first answer's bytes. */
  bytes: number;
}

/**
 * One request at a time: the first (cold) timed on its own, then at most `maxRequests` more or `durationMs`,
 * whichever ends first. `check` reads the first answer and throws when it is not what the route should say (an
 * `available: false` answer would otherwise be timed as a fast success).
 */
export async function routeLatency(
  pool: Pool,
  path: string,
  bounds: { maxRequests: number; durationMs: number },
  check: (body: unknown) => void,
): Promise<RouteLatency> {
  const started = performance.now();
  const res = await pool.request({ method: 'GET', path });
  const text = await res.body.text();
  const coldMs = performance.now() - started;
  if (res.statusCode !== 200)
    throw new Error(`GET ${path} answered ${res.statusCode}: ${text.slice(0, 500)}`);
  check(JSON.parse(text));
  const warm = await load(pool, { path, concurrency: 1, warmupMs: 0, ...bounds });
  return { path, coldMs: Math.round(coldMs), bytes: Buffer.byteLength(text), ...warm };
}

/** `cold 2345 ms, p50 1200 / p99 1500 / worst 1600 ms (12)`: the requests measured after the cold one in brackets. */
export const latencyText = (r: RouteLatency) =>
  `cold ${r.coldMs} ms, p50 ${Math.round(r.p50Ms)} / p99 ${Math.round(r.p99Ms)} / worst ${Math.round(r.maxMs)} ms (${r.requests})`;
