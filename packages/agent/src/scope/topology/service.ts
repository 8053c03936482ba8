import { topologyKindName } from '@binnacle/common';
import { type AuditSettings, configDefaults } from '../../config/agent-config.ts';
import type { Cluster } from '../../kube/cluster.ts';
import { resourceKey } from '../../kube/discovery.ts';
import type { AuditEngine } from '../audit/engine.ts';
import type { ClusterHistory } from '../history/cluster-history.ts';
import {
  buildTopology,
  defaultTopologyOptions,
  ecosystemTopologyKinds,
  type TopologyInput,
  type TopologyKind,
  type TopologyOptions,
  topologyGroups,
} from './builder.ts';
import { crossplaneGroup, definedKinds, managedRefs } from './ecosystem/crossplane.ts';
import { withFindings } from './findings.ts';
import { estimate, reducedTopology } from './level-of-detail.ts';
import type { Topology } from './model.ts';

/** Kinds of add-ons a cluster may well not have: their absence is no warning (nor is any ecosystem kind's). */
const optionalKinds = new Set([
  'Gateway',
  'HTTPRoute',
  'GRPCRoute',
  'Application',
  'Kustomization',
  'HelmRelease',
]);
const memoTtlMs = 2000;

/** What a topology is built from: the served cluster's cache and the audit over it. */
export interface TopologySource {
  readonly cluster: Cluster;
  readonly audit: AuditEngine;
  /** The objects' past states, for a topology `at` a past moment. */
  readonly history?: ClusterHistory;
}

export interface TopologyRequest extends TopologyOptions {
  namespaces?: string[];
  /** The audit settings to count each node's findings by; without them, nodes carry no audit counts. */
  audit?: AuditSettings;
  /**
   * A past moment (ms): the graph of the objects as they were then (time travel, ADR 0114). It carries no audit
   * counts and no certificates: the audit judges the present, and past Secrets keep no values to read.
   */
  at?: number;
}

/**
 * The audit's finding counts in the request's namespaces; undefined without audit settings or while pods load. When
 * the audit cannot run (the agent may not list pods, or listing fails) the warnings say why, with the code.
 */
function auditCounts(ctx: TopologySource, request: TopologyRequest, now: number, warnings: string[]) {
  if (!request.audit) return undefined;
  const { counts, error } = ctx.audit.attemptCounts(
    { namespaces: request.namespaces, settings: request.audit },
    now,
  );
  if (error) warnings.push(`the audit cannot run (${error.code}): ${error.error}`);
  return counts;
}

function snapshot(
  ctx: TopologySource,
  namespaces: string[] | undefined,
  at: number | undefined,
): { input: TopologyInput; warnings: string[] } {
  const input: TopologyInput = {};
  const warnings: string[] = [];
  const read = (key: string, group: string, kind: string, optional: boolean) => {
    const resource = ctx.cluster.find(group, kind);
    if (!resource) {
      if (!optional) warnings.push(`${kind} is not served by the cluster`);
      return;
    }
    const informer = ctx.cluster.cache.informer(resource);
    if (!informer?.synced) {
      warnings.push(
        `${resourceKey(resource)} ${informer?.state === 'forbidden' ? 'cannot be listed by the agent' : 'is still loading'}`,
      );
      return;
    }
    // A cluster-scoped kind is read whole: a namespace's objects may name any of its objects (a ClusterIssuer).
    const within = resource.namespaced ? namespaces : undefined;
    if (at === undefined) input[key] = within ? within.flatMap((n) => informer.list(n)) : informer.list();
    else if (!ctx.history) throw new Error('a topology at a past moment needs the history');
    else input[key] = ctx.history.listAt(resource, at, within);
  };
  for (const [kind, group] of Object.entries(topologyGroups) as [TopologyKind, string][])
    if (kind !== 'Node') read(kind, group, kind, optionalKinds.has(kind));
  for (const { group, kind } of ecosystemTopologyKinds)
    read(topologyKindName(group, kind), group, kind, true);
  // Nodes only for the NodeClaims that name them (Karpenter), which a namespace's graph does not draw.
  if (!namespaces && (input[topologyKindName('karpenter.sh', 'NodeClaim')]?.length ?? 0) > 0)
    read('Node', '', 'Node', true);
  // Crossplane's claims and composites are kinds its XRDs define, its managed resources whatever composites name.
  const crossplane = (group: string, kind: string) => {
    const key = topologyKindName(group, kind);
    if (!Object.hasOwn(input, key)) read(key, group, kind, true);
    return input[key] ?? [];
  };
  for (const xrd of input[topologyKindName(crossplaneGroup, 'CompositeResourceDefinition')] ?? []) {
    const { group, composite, claim } = definedKinds(xrd);
    if (claim) crossplane(group, claim);
    if (composite)
      for (const xr of crossplane(group, composite))
        for (const ref of managedRefs(xr)) crossplane(ref.group, ref.kind);
  }
  return { input, warnings };
}

/**
 * The topology from the cache, memoized per request shape: rebuilt only when the cache has changed, and at
 * most every 2 s while it keeps changing. A cluster too big to draw whole is drawn at a coarser level of detail.
 */
export class TopologyService {
  readonly #memo = new Map<string, { version: number; at: number; topology: Topology }>();
  readonly #largeCluster: number;

  /** Above `largeCluster` estimated nodes (`topologyMaxNodes`), the whole cluster is reduced to fit within it. */
  constructor(largeCluster = configDefaults().topologyMaxNodes) {
    this.#largeCluster = largeCluster;
  }

  get(ctx: TopologySource, partial: Partial<TopologyRequest>, now = Date.now()): Topology {
    ctx.cluster.resources();
    const given = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined));
    const request: TopologyRequest = { ...defaultTopologyOptions, ...given };
    const key = JSON.stringify([
      request.namespaces,
      request.includeReplicaSets,
      request.includeSecrets,
      request.maxIndividualPods,
      request.expand,
      request.audit,
      request.certificates,
      request.at,
    ]);
    const hit = this.#memo.get(key);
    const version = ctx.cluster.cache.version;
    if (hit && (hit.version === version || now - hit.at < memoTtlMs)) return hit.topology;
    const { input, warnings } = snapshot(ctx, request.namespaces, request.at);
    const audit = request.at === undefined ? auditCounts(ctx, request, now, warnings) : undefined;
    const estimatedNodes = estimate(input, request);
    const graph: Topology =
      !request.namespaces && estimatedNodes > this.#largeCluster
        ? { ...reducedTopology(input, request, this.#largeCluster), warnings, estimatedNodes }
        : { ...buildTopology(input, request), warnings };
    const certificates = request.at === undefined && (request.certificates ?? false);
    const topology = withFindings(graph, input, { audit, certificates }, now);
    if (this.#memo.size > 100) this.#memo.clear();
    this.#memo.set(key, { version, at: now, topology });
    return topology;
  }
}
