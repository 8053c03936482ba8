import { useQuery } from '@tanstack/react-query';
import { type Answer, get } from '../../api/client.ts';

export type Capabilities = Answer<'/api/capabilities'>;

/** Where the capabilities are asked: a namespace, and one kind whose list, change and delete rights are wanted. */
export interface CapabilityScope {
  namespace?: string;
  kind?: string;
  /** The kind's API group, when a kind name exists in several. */
  group?: string;
}

/**
 * What this agent offers the caller (its mode, its flags and RBAC), who it acts as and what its views show,
 * asked once a minute at most per scope; the cards of one page share one request.
 */
export const useCapabilities = (scope: CapabilityScope = {}) =>
  useQuery({
    queryKey: ['capabilities', scope.namespace ?? '', scope.kind ?? '', scope.group ?? ''],
    queryFn: ({ signal }) =>
      get('/api/capabilities', {
        query: { namespace: scope.namespace, kind: scope.kind, group: scope.group },
        signal,
      }),
    staleTime: 60_000,
  });
