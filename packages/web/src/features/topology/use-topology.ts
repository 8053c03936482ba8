import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { get } from '../../api/client.ts';
import { type StreamState, subscribe } from '../../api/events.ts';
import type { Topology } from './graph.ts';

export type TopologyView = 'resources' | 'traffic';

/** What the page draws, and how it is kept current: `past` when it is the cluster as it was, never updated. */
export interface ShownTopology {
  topology?: Topology;
  stream: StreamState | 'past';
  error?: unknown;
}

/**
 * The agent's graph for the namespace in view. Live, kept current by the event stream's `topology` events; with
 * traffic, read again every 10 s instead (the event stream carries no flows). At a past moment (`at`), read once
 * as the cluster was then and not followed: the past does not change (docs/time-travel.md).
 */
export function useTopology(
  namespace: string | undefined,
  expand: string | undefined,
  view: TopologyView,
  at: string | undefined,
): ShownTopology {
  const [topology, setTopology] = useState<Topology>();
  const [stream, setStream] = useState<StreamState>('connecting');
  const traffic = useQuery({
    queryKey: ['topology', 'traffic', namespace, expand],
    queryFn: ({ signal }) => get('/api/topology', { query: { view: 'traffic', namespace, expand }, signal }),
    enabled: view === 'traffic' && !at,
    refetchInterval: 10_000,
  });
  const past = useQuery({
    queryKey: ['topology', 'at', namespace, expand, at],
    queryFn: ({ signal }) => get('/api/topology', { query: { namespace, expand, at }, signal }),
    enabled: at !== undefined,
    // Moving through the past keeps the graph drawn until the next moment's arrives.
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  useEffect(() => {
    setTopology(undefined);
    if (view === 'traffic' || at) return;
    return subscribe(
      '/api/events/stream',
      { query: { namespaces: namespace, expand } },
      { onState: setStream, onEvent: ({ data }) => setTopology(data) },
      ['topology'],
    );
  }, [namespace, expand, view, at]);
  if (at) return { topology: past.data, stream: 'past', error: past.error ?? undefined };
  if (view === 'traffic')
    return { topology: traffic.data, stream: traffic.isError ? 'reconnecting' : 'open' };
  return { topology, stream };
}
