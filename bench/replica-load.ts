import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'undici';
import { quantile } from './http-load.ts';

/**
 * How a request through the load balancer ended. `balancer <status>`: HAProxy's own 5xx page (the replica the
 * request reached died under it, or no replica passed its health check); `cluster_disconnected`: a replica's
 * 502 (the tunnel, or the replica relaying to it, went away before the agent answered); `reset`: the connection broke without an answer.
 */
export type Outcome =
  | 'ok'
  | 'reset'
  | 'timeout'
  | `balancer ${number}`
  | 'cluster_disconnected'
  | `status ${string}`;

export interface Finished {
  clusterId: string;
  /** performance.now() of the attempt that ended it (after any 503 cluster_offline retried). */
  attemptStarted: number;
  ended: number;
  outcome: Outcome;
  /** 503 cluster_offline answers (with Retry-After) this request got and retried after before it ended. */
  refusals: number;
}

interface Job {
  clusterId: string;
  refusals: number;
  /** When a refused request may be sent again (its Retry-After). */
  due: number;
}

export interface Window {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const requestTimeoutMs = 15_000;
const round = (value: number) => Number(value.toFixed(2));

function classify(status: number, text: string, retryAfter: unknown): Outcome | 'refused' {
  let answer: { code?: unknown; error?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    answer = {};
  }
  const { code } = answer;
  if (status === 503 && code === 'cluster_offline' && Number(retryAfter) > 0) return 'refused';
  if (status === 502 && code === 'cluster_disconnected') return 'cluster_disconnected';
  if (status >= 500 && code === undefined) return `balancer ${status}`;
  return `status ${status}${typeof code === 'string' ? ` ${code}` : ''}`;
}

/**
 * Closed-loop GETs of `/c/<cluster>/api/health` through the load balancer at a fixed concurrency, the clusters
 * taken in turn so each is asked about once per round. A 503 `cluster_offline` with Retry-After is what a
 * client is told to retry: the request goes back in a queue until then (its worker moves on), so only an
 * answer that cannot be retried ends a request as failed.
 */
export class SpreadLoad {
  readonly finished: Finished[] = [];
  /** Attempts sent and not answered yet, by the time they were sent. */
  readonly inFlight = new Map<object, { clusterId: string; started: number }>();
  #refused: Job[] = [];
  #next = 0;
  #stopping = false;
  #drainUntil = Number.POSITIVE_INFINITY;
  #workers: Promise<void>[] = [];
  readonly #pool: Pool;
  readonly #clusterIds: string[];
  readonly #cookie: string;
  readonly #body: string;

  constructor(pool: Pool, clusterIds: string[], cookie: string, body: string) {
    this.#pool = pool;
    this.#clusterIds = clusterIds;
    this.#cookie = cookie;
    this.#body = body;
  }

  start(concurrency: number): void {
    this.#workers = Array.from({ length: concurrency }, () => this.#work());
  }

  /** No new requests; the refused ones still waiting are retried until `drainMs` has passed. */
  async stop(drainMs: number): Promise<{ undrained: number }> {
    this.#drainUntil = performance.now() + drainMs;
    this.#stopping = true;
    await Promise.all(this.#workers);
    return { undrained: this.#refused.length };
  }

  /** Throughput and latency of the requests answered 200 whose last attempt started within the window. */
  window(from: number, to: number): Window {
    const ok = this.finished.filter(
      (f) => f.outcome === 'ok' && f.attemptStarted >= from && f.attemptStarted < to,
    );
    const sorted = Float64Array.from(ok.map((f) => f.ended - f.attemptStarted)).sort();
    return {
      requests: ok.length,
      perSecond: Math.round(ok.length / ((to - from) / 1000)),
      p50Ms: round(quantile(sorted, 0.5)),
      p99Ms: round(quantile(sorted, 0.99)),
    };
  }

  #take(): Job | undefined {
    const now = performance.now();
    if (now > this.#drainUntil) return undefined;
    const first = this.#refused[0];
    if (first && first.due <= now) return this.#refused.shift();
    if (this.#stopping) return undefined;
    const clusterId = this.#clusterIds[this.#next++ % this.#clusterIds.length] as string;
    return { clusterId, refusals: 0, due: now };
  }

  async #work(): Promise<void> {
    for (;;) {
      const job = this.#take();
      if (!job) {
        if (this.#refused.length === 0 || performance.now() > this.#drainUntil) return;
        await sleep(20);
        continue;
      }
      const key = {};
      const started = performance.now();
      this.inFlight.set(key, { clusterId: job.clusterId, started });
      const answer = await this.#send(job.clusterId);
      this.inFlight.delete(key);
      if (answer.outcome === 'refused') {
        this.#refused.push({
          ...job,
          refusals: job.refusals + 1,
          due: performance.now() + answer.retryAfterMs,
        });
        continue;
      }
      this.finished.push({
        clusterId: job.clusterId,
        attemptStarted: started,
        ended: performance.now(),
        outcome: answer.outcome,
        refusals: job.refusals,
      });
    }
  }

  async #send(clusterId: string): Promise<{ outcome: Outcome | 'refused'; retryAfterMs: number }> {
    try {
      const res = await this.#pool.request({
        method: 'GET',
        path: `/c/${clusterId}/api/health`,
        headers: { cookie: this.#cookie },
        headersTimeout: requestTimeoutMs,
        bodyTimeout: requestTimeoutMs,
      });
      const text = await res.body.text();
      if (res.statusCode === 200)
        return { outcome: text === this.#body ? 'ok' : 'status 200 wrong body', retryAfterMs: 0 };
      const retryAfter = res.headers['retry-after'];
      return { outcome: classify(res.statusCode, text, retryAfter), retryAfterMs: Number(retryAfter) * 1000 };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      return { outcome: code.includes('TIMEOUT') ? 'timeout' : 'reset', retryAfterMs: 0 };
    }
  }
}
