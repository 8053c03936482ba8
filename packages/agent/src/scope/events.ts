import type { KubeObject } from '@binnacle/common';
import type { AgentContext } from '../context.ts';

/**
 * Kubernetes Events from the cache, newest first, optionally of one type and about one kind and name: the
 * timeline's events route and the tools that show an object with its events read them.
 */
export function kubeEvents(
  ctx: Pick<AgentContext, 'cluster'>,
  query: { namespaces?: string[]; type?: string; kind?: string; name?: string; limit: number },
) {
  const resource = ctx.cluster.resolve('events');
  const all = query.namespaces
    ? query.namespaces.flatMap((ns) => ctx.cluster.cache.list(resource, ns))
    : ctx.cluster.cache.list(resource);
  const time = (e: KubeObject) =>
    String(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '');
  const involved = (e: KubeObject) => (e.involvedObject ?? {}) as { kind?: string; name?: string };
  const items = all
    .filter(
      (e) =>
        (!query.type || e.type === query.type) &&
        (!query.kind || involved(e).kind?.toLowerCase() === query.kind.toLowerCase()) &&
        (!query.name || involved(e).name === query.name),
    )
    .sort((a, b) => time(b).localeCompare(time(a)));
  return { items: items.slice(0, query.limit), total: items.length };
}
