import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ApiError, get } from '../../api/client.ts';

const meKey = ['auth-me'];
const buttonLook =
  'rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

const refusedForNoSession = (error: unknown) =>
  error instanceof ApiError && error.status === 401 && error.code === 'unauthenticated';

/**
 * A session can end while its page stays open (signed out in another tab, the IdP's back-channel logout, its
 * lifetime, an agent restart): the first request refused for that asks the agent again who is signed in, so
 * the banner stops naming someone the agent no longer knows.
 */
function useSessionEnd(): void {
  const client = useQueryClient();
  useEffect(() => {
    const recheck = (event: { type: string; action?: { type: string; error?: unknown } }) => {
      if (
        event.type === 'updated' &&
        event.action?.type === 'error' &&
        refusedForNoSession(event.action.error)
      )
        void client.refetchQueries({ queryKey: meKey }, { cancelRefetch: false });
    };
    const stopQueries = client.getQueryCache().subscribe(recheck);
    const stopMutations = client.getMutationCache().subscribe(recheck);
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [client]);
}

/** OIDC, once the session has ended under an open page: say so, and offer the way back to this page. */
function SignInAgain() {
  const here = useRouterState({ select: (state) => state.location.href });
  return (
    <div role="status" className="flex items-center gap-2 text-sm">
      <span className="text-slate-600 dark:text-slate-400">Your session ended</span>
      <a href={`auth/login?returnTo=${encodeURIComponent(here)}`} className={buttonLook}>
        Sign in again
      </a>
    </div>
  );
}

/**
 * Who is signed in to the agent itself (`--auth-mode proxy|oidc`), and with OIDC a way out. Nothing in mode
 * none, nor in cloud mode, where the hub's own pages show the person.
 */
export function SignedIn() {
  const me = useQuery({
    queryKey: meKey,
    queryFn: ({ signal }) => get('/api/auth/me', { signal }),
    staleTime: 60_000,
  });
  useSessionEnd();
  const data = me.data;
  if (!data?.authEnabled || data.authMode === 'cloud') return null;
  if (!data.username) return data.authMode === 'oidc' ? <SignInAgain /> : null;
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="max-w-48 truncate text-slate-600 dark:text-slate-400" title={data.groups?.join(', ')}>
        {data.username}
      </span>
      {data.authMode === 'oidc' && (
        <a href="auth/logout" className={buttonLook}>
          Sign out
        </a>
      )}
    </div>
  );
}
