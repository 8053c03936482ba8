import { useQuery } from '@tanstack/react-query';
import { type HubAnswer, hub } from '../api.ts';

export type FleetPath =
  | '/api/fleet/problems'
  | '/api/fleet/certs'
  | '/api/fleet/audit'
  | '/api/fleet/packages'
  | '/api/fleet/search';

/** What every fleet route answers around its rows: each cluster's status and the ones that failed. */
export type FleetAnswer = Pick<HubAnswer<FleetPath>, 'clusters' | 'errors' | 'total'> & { items: object[] };
export type FleetRow<P extends FleetPath> = HubAnswer<P>['items'][number];

/** The hub's limit on a search's text (`q` of GET /api/fleet/search): longer is refused with 400. */
export const searchMaxChars = 256;

/**
 * One fleet view. Each call asks every cluster and counts against 30 a minute per person, so an answer is kept
 * a minute, not refetched when the window regains focus, and a failure (a 429 above all) is never retried by
 * itself: the page says when asking again may work and leaves it to the reader.
 */
export function useFleet<P extends FleetPath>(path: P, query: Record<string, string | undefined> = {}) {
  return useQuery({
    queryKey: ['fleet', path, query],
    queryFn: ({ signal }) => hub.get(path, { query, signal }),
    staleTime: 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}
