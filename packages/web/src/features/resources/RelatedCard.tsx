import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { get } from '../../api/client.ts';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { healthColor, pageKind, type TopologyNode } from '../topology/graph.ts';
import { relatedObjects, topologyId } from './related.ts';

/**
 * Owners, what the object manages, its Services, configuration and the rest, from its namespace's topology (a
 * cluster-scoped object's: the whole cluster's): now, or as it was at `at` (time travel).
 */
export function RelatedCard({
  kind,
  group,
  namespace,
  name,
  at,
}: {
  kind: string;
  /** The object's API group: the topology names an ecosystem kind by it (Knative's `Service`). */
  group: string;
  namespace?: string;
  name: string;
  at?: string;
}) {
  const topology = useQuery({
    queryKey: ['topology', namespace, 'with-replicasets', at],
    queryFn: ({ signal }) =>
      get('/api/topology', {
        query: { ...(namespace ? { namespace } : {}), replicaSets: 'true', ...(at ? { at } : {}) },
        signal,
      }),
    refetchInterval: at ? false : 15_000,
  });
  const groups = useMemo(
    () => (topology.data ? relatedObjects(topology.data, topologyId(kind, namespace, name, group)) : []),
    [topology.data, kind, group, namespace, name],
  );
  return (
    <Card title="Related objects">
      {topology.isPending ? (
        <Loading what="related objects" />
      ) : topology.isError ? (
        <ErrorMessage error={topology.error} what="related objects" />
      ) : groups.length === 0 ? (
        <Empty>Nothing owns, exposes or configures this object, and it manages nothing.</Empty>
      ) : (
        <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-2 text-sm">
          {groups.map((group) => (
            <div key={group.title} className="contents">
              <dt className="text-slate-600 dark:text-slate-400">{group.title}</dt>
              <dd>
                <ul aria-label={group.title} className="flex flex-wrap gap-x-4 gap-y-1">
                  {group.nodes.map((node) => (
                    <li key={node.id} className="flex items-center gap-1.5">
                      <span
                        className="inline-block h-2 w-2 shrink-0 rounded-full"
                        style={{ background: healthColor[node.status] }}
                        role="img"
                        aria-label={node.status}
                      />
                      <span className="text-xs text-slate-600 dark:text-slate-400">{node.kind}</span>
                      <RelatedLink node={node} at={at} />
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/**
 * A pod group (too many pods to list) opens the pods table filtered to its owner's name; an object others name
 * that does not exist opens nothing and says so.
 */
function RelatedLink({ node, at }: { node: TopologyNode; at?: string }) {
  if (node.data.missing === true)
    return (
      <span className="font-mono text-xs text-red-800 dark:text-red-300">
        {node.namespace ? `${node.namespace}/` : ''}
        {node.name} (missing)
      </span>
    );
  if (node.kind !== 'PodGroup')
    return <ObjectLink kind={pageKind(node)} namespace={node.namespace} name={node.name} />;
  return (
    <Link
      to="/resources/$kind"
      params={{ kind: 'pods' }}
      search={{ namespace: node.namespace, q: node.name.replace(/ pods$/, ''), at }}
      className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
    >
      {String(node.data.count)} pods
    </Link>
  );
}
