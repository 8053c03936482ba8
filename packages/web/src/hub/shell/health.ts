import { hub } from '../api.ts';

/** The hub's health: how people sign in here (OIDC, break-glass) and whether invitations can be accepted. */
export const hubHealthQuery = {
  queryKey: ['hub-health'],
  queryFn: ({ signal }: { signal: AbortSignal }) => hub.get('/api/health', { signal }),
};
