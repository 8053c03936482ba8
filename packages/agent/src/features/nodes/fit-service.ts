import { codePointOrder, dnsSubdomainPattern, type KubeObject } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { KubeList } from '../../kube/objects.ts';
import { parseLabelSelector } from '../../kube/selectors.ts';
import type { DrainOptions } from './drain-plan.ts';
import { type DrainFit, drainFit, type FitSnapshot } from './fit/drain-fit.ts';
import type { NodesContext } from './module.ts';

/** A fit names at most this many nodes, by name or by label selector. */
export const fitLimits = { nodes: 100 };

export interface FitQuery extends Partial<DrainOptions> {
  /** Comma-separated node names. */
  nodes?: string;
  labelSelector?: string;
}

const namePattern = new RegExp(dnsSubdomainPattern);

/** What the simulation reads, cluster-wide: only a caller who may list all of it gets an answer built on it. */
const reads = [
  { group: '', resource: 'nodes' },
  { group: '', resource: 'pods' },
  { group: 'policy', resource: 'poddisruptionbudgets' },
];

const livePaths: Record<string, string> = {
  Node: '/api/v1/nodes',
  Pod: '/api/v1/pods',
  PodDisruptionBudget: '/apis/policy/v1/poddisruptionbudgets',
  DaemonSet: '/apis/apps/v1/daemonsets',
};

/**
 * The cluster's nodes, pods, PodDisruptionBudgets and DaemonSets from the cache; an agent that watches only some
 * namespaces (ADR 0121) does not hold every pod, so it lists them live, as the caller.
 */
async function snapshotOf(ctx: NodesContext, as?: Impersonation): Promise<FitSnapshot> {
  const { cluster } = ctx;
  const kinds = [
    cluster.resolve('Node'),
    cluster.resolve('Pod'),
    cluster.resolve('PodDisruptionBudget', 'policy'),
    cluster.resolve('DaemonSet', 'apps'),
  ];
  const [nodes, pods, budgets, daemonSets] = (await Promise.all(
    kinds.map(async (resource) => {
      if (!cluster.cache.namespaces && cluster.cache.caches(resource)) return cluster.cache.list(resource);
      const list = await cluster.client.request<KubeList>({ path: livePaths[resource.kind] as string, as });
      return list.items ?? [];
    }),
  )) as [KubeObject[], KubeObject[], KubeObject[], KubeObject[]];
  const existing = new Set(daemonSets.map((ds) => `${ds.metadata?.namespace}/${ds.metadata?.name}`));
  return {
    nodes,
    pods,
    budgets,
    namespaces: cluster.cache.peek(cluster.find('', 'Namespace')),
    daemonSetExists: (namespace, name) => existing.has(`${namespace}/${name}`),
  };
}

/** The nodes the query names, checked: each exists, at most `fitLimits.nodes`. */
function chosenNodes(query: FitQuery, nodes: KubeObject[]): string[] {
  if ((query.nodes === undefined) === (query.labelSelector === undefined))
    throw badRequest('give exactly one of the query parameters "nodes" and "labelSelector"');
  const known = new Set(nodes.map((n) => n.metadata?.name ?? ''));
  if (query.labelSelector !== undefined) {
    const matches = parseLabelSelector(query.labelSelector);
    const chosen = nodes.filter((n) => matches(n.metadata?.labels)).map((n) => n.metadata?.name ?? '');
    if (chosen.length === 0)
      throw badRequest(`query parameter "labelSelector" selects no node: ${query.labelSelector}`);
    if (chosen.length > fitLimits.nodes)
      throw badRequest(
        `query parameter "labelSelector" selects ${chosen.length} nodes; at most ${fitLimits.nodes}`,
      );
    return chosen.sort(codePointOrder);
  }
  const names = [...new Set((query.nodes ?? '').split(',').map((n) => n.trim()))];
  if (names.length > fitLimits.nodes)
    throw badRequest(`query parameter "nodes" names ${names.length} nodes; at most ${fitLimits.nodes}`);
  const invalid = names.find((n) => !namePattern.test(n) || n.length > 253);
  if (invalid !== undefined)
    throw badRequest(`query parameter "nodes" has an invalid node name "${invalid}"`);
  const missing = names.filter((n) => !known.has(n));
  if (missing.length > 0) throw new AppError('not_found', `node ${missing.join(', ')} not found`);
  return names.sort(codePointOrder);
}

/**
 * What a drain of the named nodes would do to their pods (ADR 0123), before anything is cordoned or evicted: where
 * each evicted pod's replacement would run or why it would stay Pending, which PodDisruptionBudgets block, and an
 * order of the nodes in batches. Read-only; the caller must be able to list nodes, pods and budgets cluster-wide.
 */
export async function drainFitOf(ctx: NodesContext, query: FitQuery, as?: Impersonation): Promise<DrainFit> {
  for (const resource of reads) await requireAccess(ctx, as, { verb: 'list', ...resource });
  const snapshot = await snapshotOf(ctx, as);
  const nodes = chosenNodes(query, snapshot.nodes);
  return drainFit(snapshot, nodes, {
    ignoreDaemonSets: query.ignoreDaemonSets ?? true,
    deleteEmptyDirData: query.deleteEmptyDirData ?? false,
    force: query.force ?? false,
  });
}
