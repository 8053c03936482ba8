import { codePointOrder, type KubeObject } from '@binnacle/common';
import type { Health } from '../../kube/health.ts';
import type { TopologyInput } from './builder.ts';
import { nodeId, type TopologyNode } from './model.ts';
import { healthSummary, ns } from './node-data.ts';

/** Kinds a namespace's health is judged by: what runs, not what configures it. */
const judged = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod']);

/**
 * The whole cluster at one node per namespace, counting its objects and pods and the health of what runs there:
 * what a cluster too big to draw object by object shows, each node opening that namespace's graph.
 */
export function namespaceOverview(input: TopologyInput): TopologyNode[] {
  const byNamespace = new Map<string, KubeObject[]>();
  for (const objects of Object.values(input)) {
    for (const object of objects ?? []) {
      const namespace = ns(object);
      if (!namespace) continue;
      const members = byNamespace.get(namespace);
      if (members) members.push(object);
      else byNamespace.set(namespace, [object]);
    }
  }
  return [...byNamespace]
    .sort(([a], [b]) => codePointOrder(a, b))
    .map(([name, objects]) => {
      const running = objects.filter((o) => judged.has(o.kind ?? ''));
      const { counts, status } = healthSummary(running);
      const data: Record<string, unknown> = {
        objects: objects.length,
        pods: objects.filter((o) => o.kind === 'Pod').length,
        ...counts,
      };
      return {
        id: nodeId('Namespace', undefined, name),
        kind: 'Namespace',
        name,
        status: (running.length > 0 ? status : 'unknown') satisfies Health,
        data,
      };
    });
}
