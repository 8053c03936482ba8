import type { CallerView } from '../../http/caller-view.ts';
import { detectPlatform, type Platform } from '../../scope/platform.ts';
import type { HealthContext } from './module.ts';

export interface ClusterInfo {
  context: string;
  cluster: string;
  server: string;
  platform: Platform;
  kubernetesVersion?: string;
  nodeCount: number;
  podCount: number;
  namespaceCount: number;
}

/** Which cluster this is, read from the cache; counts are of the caller's view (see callerView). */
export function clusterInfo(ctx: HealthContext, view: CallerView): ClusterInfo {
  const { cluster } = ctx;
  const resources = cluster.resources();
  const nodes = cluster.cache.peek(cluster.find('', 'Node'));
  const pods = cluster.cache.peek(cluster.find('', 'Pod'));
  const shown = view.namespaces && new Set(view.namespaces);
  return {
    context: cluster.target.contextName,
    cluster: cluster.target.clusterName,
    server: cluster.target.server.origin,
    platform: detectPlatform({
      gitVersion: cluster.version?.gitVersion,
      serverUrl: cluster.target.server.href,
      nodes,
      groups: [...new Set(resources.map((r) => r.group))],
    }),
    kubernetesVersion: cluster.version?.gitVersion,
    nodeCount: view.hiddenKinds.includes('Node') ? 0 : nodes.length,
    podCount: shown ? pods.filter((pod) => shown.has(pod.metadata?.namespace ?? '')).length : pods.length,
    namespaceCount: shown ? shown.size : cluster.cache.peek(cluster.find('', 'Namespace')).length,
  };
}
