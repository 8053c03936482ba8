import { instantQuery, StoreUnavailable, type VectorSample } from '../../scope/metricsdb/client.ts';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import {
  type MetricFlow,
  type MetricSource,
  metricFlows,
  metricQueries,
  type Namer,
  presenceSeries,
} from './metrics-flows.ts';

/** Which metrics sources have series in the store, or why the store cannot say. */
export type Presence = { present: ReadonlySet<MetricSource> } | { reason: string };

/** A presence answer is reused this long: detection runs on every sources/flows request. */
const presenceTtlMs = 15_000;
/** Traffic reads wait at most this long for the store, whatever its configured time-out. */
const maxReadMs = 10_000;

const sourceOf = new Map<string, MetricSource>(
  Object.entries(presenceSeries).flatMap(([source, names]) =>
    names.split('|').map((name) => [name, source as MetricSource] as const),
  ),
);

/** Reads Istio's, Caretta's and Beyla's series from the agent's metrics store. */
export class MetricsFlowReader {
  readonly #stores: MetricsStores;
  #presence?: { answer: Presence; at: number };
  #probing?: Promise<Presence>;

  constructor(stores: MetricsStores) {
    this.#stores = stores;
  }

  get #timeoutMs(): number {
    return Math.min(this.#stores.timeoutMs, maxReadMs);
  }

  /** The sources whose series the store holds now (briefly cached, one probe at a time). */
  presence(now = Date.now()): Promise<Presence> {
    const cached = this.#presence;
    if (cached && now - cached.at < presenceTtlMs) return Promise.resolve(cached.answer);
    this.#probing ??= this.#probe()
      .then((answer) => {
        this.#presence = { answer, at: Date.now() };
        return answer;
      })
      .finally(() => {
        this.#probing = undefined;
      });
    return this.#probing;
  }

  async #probe(): Promise<Presence> {
    const names = Object.values(presenceSeries).join('|');
    const answer = await this.#query(`count by (__name__) ({__name__=~"${names}"})`, Date.now());
    if (!Array.isArray(answer)) return answer;
    const present = new Set<MetricSource>();
    for (const sample of answer) {
      const source = sourceOf.get(sample.metric.__name__ ?? '');
      if (source) present.add(source);
    }
    return { present };
  }

  /** The source's flows of the window ending at `now`, or why the store cannot give them. */
  async flows(
    source: MetricSource,
    namer: Namer,
    windowMs: number,
    now: number,
  ): Promise<MetricFlow[] | { reason: string }> {
    const queries = metricQueries(source, windowMs / 1000);
    const [requests, bytes] = await Promise.all([
      queries.requests ? this.#query(queries.requests, now) : [],
      this.#query(queries.bytes, now),
    ]);
    if (!Array.isArray(requests)) return requests;
    if (!Array.isArray(bytes)) return bytes;
    return metricFlows(source, namer, { requests, bytes });
  }

  async #query(query: string, now: number): Promise<VectorSample[] | { reason: string }> {
    const state = await this.#stores.resolve();
    if (!state.available) return { reason: `no metrics store: ${state.reason}` };
    try {
      const data = await instantQuery(state.connection.endpoint, query, now, this.#timeoutMs);
      return data.resultType === 'vector' ? data.result : [];
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      return { reason: `the metrics store failed: ${this.#stores.lost(error.message).reason}` };
    }
  }
}
