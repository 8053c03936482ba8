import type { Pool } from 'undici';

export interface LoadOptions {
  path: string;
  headers?: Record<string, string>;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** Cap on measured requests, so a surprisingly fast server cannot make the run unbounded in memory. */
  maxRequests: number;
  /** CPU time used so far (ms) by each process that serves the load, read as the measurement starts and ends. */
  cpuMs?: () => Promise<Record<string, number>>;
  /** Ends the measurement before durationMs once it says so (checked before each request). */
  done?: () => boolean;
}

export interface LoadFigures {
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * CPU time per measured request (µs) of each process `cpuMs` names: on a busy machine, throughput follows
   * whatever else runs, while this stays the cost of a request.
   */
  cpuUsPerRequest?: Record<string, number>;
}

export const quantile = (sorted: Float64Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * Closed-loop load: `concurrency` workers each send the next GET as soon as the previous answer is read, over
 * the pool's keep-alive connections. Any status but 200 stops every worker and fails the run with the body.
 */
export async function load(pool: Pool, options: LoadOptions): Promise<LoadFigures> {
  const latencies = new Float64Array(options.maxRequests);
  let measured = 0;
  let failure: Error | undefined;

  const phase = async (untilMs: number, record: boolean) => {
    // One cap per phase, so the warm-up is bounded too; a worker checks it before sending, so at most
    // maxRequests latencies are kept.
    let issued = 0;
    const worker = async () => {
      while (!failure && !options.done?.() && issued < options.maxRequests && performance.now() < untilMs) {
        issued += 1;
        const started = performance.now();
        const res = await pool.request({ method: 'GET', path: options.path, headers: options.headers });
        const body = await res.body.text();
        if (res.statusCode !== 200) {
          failure ??= new Error(`GET ${options.path} answered ${res.statusCode}: ${body.slice(0, 500)}`);
          return;
        }
        if (record) latencies[measured++] = performance.now() - started;
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: options.concurrency }, worker));
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure) throw failure;
    if (rejected) throw rejected.reason;
  };

  await phase(performance.now() + options.warmupMs, false);
  const cpuBefore = await options.cpuMs?.();
  const started = performance.now();
  await phase(started + options.durationMs, true);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await options.cpuMs?.();
  const sorted = latencies.subarray(0, measured).sort();
  return {
    requests: measured,
    seconds: round(seconds, 2),
    perSecond: Math.round(measured / seconds),
    p50Ms: round(quantile(sorted, 0.5), 2),
    p99Ms: round(quantile(sorted, 0.99), 2),
    maxMs: round(quantile(sorted, 1), 2),
    cpuUsPerRequest:
      cpuBefore &&
      cpuAfter &&
      Object.fromEntries(
        Object.entries(cpuAfter).map(([name, ms]) => [
          name,
          Math.round((1000 * (ms - (cpuBefore[name] ?? 0))) / Math.max(1, measured)),
        ]),
      ),
  };
}
