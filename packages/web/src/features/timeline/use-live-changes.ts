import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Answer, get } from '../../api/client.ts';
import { type StreamState, subscribe } from '../../api/events.ts';
import { placeChange } from './order.ts';

export type Change = Answer<'/api/changes'>['events'][number];
export interface ChangeFilter {
  namespace?: string;
  kind?: string;
  name?: string;
}

const kept = 500;

const matches = (change: Change, filter: ChangeFilter) =>
  (!filter.namespace || change.namespace === filter.namespace) &&
  (!filter.kind ||
    filter.kind.split(',').some((k) => k.trim().toLowerCase() === change.kind.toLowerCase())) &&
  (!filter.name || change.name === filter.name);

/**
 * The newest changes that match the filter: one page from /api/changes, then every matching `change` the
 * agent streams, merged into the same query cache in the page's order (newest first by timestamp: a change is
 * streamed when it is recorded, which may be after newer ones), deduplicated by seq, at most 500 kept.
 */
export function useLiveChanges(filter: ChangeFilter) {
  const queryClient = useQueryClient();
  const queryKey = ['changes', filter.namespace, filter.kind, filter.name];
  const [stream, setStream] = useState<StreamState>('connecting');
  const changes = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      get('/api/changes', {
        query: { namespace: filter.namespace, kind: filter.kind, name: filter.name, limit: 200 },
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const loaded = changes.data && `${changes.data.epoch}:${changes.data.latestSeq}`;
  // The stream starts after the loaded page, and only once it is there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is derived from the filter fields listed.
  useEffect(() => {
    if (!loaded) return;
    return subscribe(
      '/api/events/stream',
      { query: { namespaces: filter.namespace } },
      {
        onState: setStream,
        onEvent: ({ data: change }) => {
          if (!matches(change, filter)) return;
          queryClient.setQueryData<Answer<'/api/changes'>>(queryKey, (page) => {
            if (!page) return page;
            const events = placeChange(page.events, change, kept);
            return events === page.events ? page : { ...page, events };
          });
        },
      },
      ['change'],
      loaded,
    );
  }, [filter.namespace, filter.kind, filter.name, queryClient, loaded]);
  return { changes, stream };
}
