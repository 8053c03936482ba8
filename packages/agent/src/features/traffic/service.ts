import type { KubeObject } from '@binnacle/common';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import { trafficWindow } from '../../scope/traffic/window.ts';
import { aggregateFlows } from './aggregate.ts';
import { HubbleConnection } from './connection.ts';
import {
  detectCni,
  detectSources,
  findRelayService,
  type Recommendation,
  recommend,
  type SourceDetection,
  type SourceName,
} from './detect.ts';
import { aggregateMetricFlows } from './metrics-aggregate.ts';
import type { MetricFlow, Namer } from './metrics-flows.ts';
import { MetricsFlowReader } from './metrics-source.ts';
import type { FlowPair, FlowRecord } from './model.ts';
import type { TrafficContext } from './module.ts';
import { EndpointResolver } from './resolve.ts';
import { type FlowView, visibleFlows } from './visibility.ts';

export const flowLimits = {
  defaultWindowMs: trafficWindow.defaultMs,
  maxWindowMs: trafficWindow.maxMs,
  defaultPairs: 500,
  maxPairs: 5000,
};

export interface SourcesAnswer {
  sources: SourceDetection[];
  /** The source flows come from; null when none can give flows. */
  active: SourceName | null;
  /** The source chosen with POST /api/traffic/source; null: automatic (detection order). */
  preferred: SourceName | null;
  cni?: string;
  recommendation?: Recommendation;
}

export type FlowsAnswer =
  | { available: false; reason: string; recommendation?: Recommendation }
  | {
      available: true;
      source: SourceName;
      windowMs: number;
      from: string;
      to: string;
      pairs: FlowPair[];
      /** More pairs than `limit`: the busiest are kept. */
      truncated: boolean;
    };

/** Reads flows from the active source and names their ends after the cache's objects. */
export class TrafficService {
  readonly #ctx: TrafficContext;
  readonly hubble: HubbleConnection;
  readonly metrics: MetricsFlowReader;
  #preferred: SourceName | null = null;

  constructor(ctx: TrafficContext, stores: MetricsStores) {
    this.#ctx = ctx;
    this.hubble = new HubbleConnection(ctx);
    this.metrics = new MetricsFlowReader(stores);
  }

  #cached(group: string, kind: string): KubeObject[] {
    const resource = this.#ctx.cluster.find(group, kind);
    const informer = resource && this.#ctx.cluster.cache.informer(resource);
    return informer?.synced ? informer.list() : [];
  }

  relay(): KubeObject | undefined {
    return findRelayService(this.#cached('', 'Service'));
  }

  resolver(): EndpointResolver {
    return new EndpointResolver({
      pods: this.#cached('', 'Pod'),
      services: this.#cached('', 'Service'),
      nodes: this.#cached('', 'Node'),
      replicaSets: this.#cached('apps', 'ReplicaSet'),
      jobs: this.#cached('batch', 'Job'),
    });
  }

  /** Metric series name workloads; an address is a pod, Service or node IP, else the outside. */
  namer(): Namer {
    const resolver = this.resolver();
    return {
      workload: (namespace, name, kind) => resolver.named(namespace, name, kind),
      address: (address) =>
        /^[0-9a-fA-F.:]+$/.test(address)
          ? resolver.resolve({ ip: address })
          : resolver.resolve({ names: [address] }),
    };
  }

  async sources(): Promise<SourcesAnswer> {
    const daemonSets = this.#cached('apps', 'DaemonSet');
    const metrics = await this.metrics.presence();
    const sources = detectSources({
      services: this.#cached('', 'Service'),
      deployments: this.#cached('apps', 'Deployment'),
      daemonSets,
      hubbleAddress: this.hubble.state.address ?? this.#ctx.config.hubbleAddress,
      metrics,
    });
    const usable = sources.filter((s) => s.status === 'available');
    const active = (usable.find((s) => s.name === this.#preferred) ?? usable[0])?.name ?? null;
    const cni = detectCni(daemonSets);
    return {
      sources,
      active,
      preferred: this.#preferred,
      ...(cni ? { cni } : {}),
      ...(active ? {} : { recommendation: recommend(cni) }),
    };
  }

  get preferred(): SourceName | null {
    return this.#preferred;
  }

  /** `auto` goes back to the detection order. */
  setPreferred(name: SourceName | 'auto'): SourceName | null {
    this.#preferred = name === 'auto' ? null : name;
    return this.#preferred;
  }

  /** Why no flows can be read, or the active source's name. */
  async activeOrAbsence(): Promise<
    { source: SourceName } | { available: false; reason: string; recommendation?: Recommendation }
  > {
    const answer = await this.sources();
    if (answer.active) return { source: answer.active };
    // A chosen source says why it cannot give flows, else the first one found that waits for the store.
    const waiting =
      answer.sources.find((s) => s.name === this.#preferred) ??
      answer.sources.find((s) => s.status === 'needs_metrics_store');
    return {
      available: false,
      reason: waiting
        ? waiting.message
        : 'no traffic source found in the cluster (Hubble, Istio, Caretta, Beyla)',
      ...(answer.recommendation ? { recommendation: answer.recommendation } : {}),
    };
  }

  /** The Hubble flows since `sinceMs`, or why there are none. */
  async hubbleFlows(sinceMs: number): Promise<FlowRecord[] | { available: false; reason: string }> {
    const client = await this.hubble.client(this.relay());
    if (!client) return { available: false, reason: this.hubble.state.reason ?? 'not connected to Hubble' };
    try {
      return await client.flows(sinceMs);
    } catch (error) {
      this.hubble.failed(error);
      return {
        available: false,
        reason: `Hubble relay ${client.address} failed: ${this.hubble.state.reason}`,
      };
    }
  }

  /** The caller's pairs of the window from the active source. */
  async pairs(
    source: SourceName,
    view: FlowView,
    windowMs: number,
    now: number,
  ): Promise<FlowPair[] | { available: false; reason: string }> {
    if (source !== 'hubble') {
      const flows = await this.metrics.flows(source, this.namer(), windowMs, now);
      if (!Array.isArray(flows)) return { available: false, reason: flows.reason };
      return metricPairsOf(flows, view, windowMs, now);
    }
    const records = await this.hubbleFlows(now - windowMs);
    if (!Array.isArray(records)) return records;
    return pairsOf(this.resolver(), records, view, windowMs);
  }

  async flows(view: FlowView, windowMs: number, limit: number, now = Date.now()): Promise<FlowsAnswer> {
    const active = await this.activeOrAbsence();
    if (!('source' in active)) return active;
    const pairs = await this.pairs(active.source, view, windowMs, now);
    if (!Array.isArray(pairs)) return pairs;
    return {
      available: true,
      source: active.source,
      windowMs,
      from: new Date(now - windowMs).toISOString(),
      to: new Date(now).toISOString(),
      pairs: pairs.slice(0, limit),
      truncated: pairs.length > limit,
    };
  }

  close(): void {
    this.hubble.close();
  }
}

/** Records → named ends → the caller's view → pairs. */
export function pairsOf(
  resolver: EndpointResolver,
  records: readonly FlowRecord[],
  view: FlowView,
  windowMs: number,
): FlowPair[] {
  return aggregateFlows(
    visibleFlows(
      records.map((r) => resolver.flow(r)),
      view,
    ),
    windowMs,
  );
}

/** A metrics source's flows → the caller's view → pairs. */
export const metricPairsOf = (flows: readonly MetricFlow[], view: FlowView, windowMs: number, now: number) =>
  aggregateMetricFlows(visibleFlows(flows, view), windowMs, now);
