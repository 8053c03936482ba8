import type { AgentContext } from '../../context.ts';
import { detectPlatform, type Platform } from './platform.ts';

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

/** Which cluster this is, read from the cache (counts are of what the agent may see). */
export function clusterInfo(ctx: AgentContext): ClusterInfo {
  const { cluster } = ctx;
  const resources = cluster.resources();
  const count = (group: string, kind: string) => cluster.cache.peek(cluster.find(group, kind)).length;
  const nodes = cluster.cache.peek(cluster.find('', 'Node'));
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
    nodeCount: nodes.length,
    podCount: count('', 'Pod'),
    namespaceCount: count('', 'Namespace'),
  };
}
