import { useQuery } from '@tanstack/react-query';
import { type Answer, get } from '../../api/client.ts';

export type Capabilities = Answer<'/api/capabilities'>;

/** What this agent offers the caller (its mode, its flags and RBAC), asked once a minute at most. */
export const useCapabilities = () =>
  useQuery({
    queryKey: ['capabilities'],
    queryFn: ({ signal }) => get('/api/capabilities', { signal }),
    staleTime: 60_000,
  });
