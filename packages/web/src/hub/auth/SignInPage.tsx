import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Field } from '../../ui/forms.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { hub } from '../api.ts';
import { InvitationsUnavailable } from '../members/InvitationsUnavailable.tsx';
import { useHubSearch } from '../route-api.ts';
import { hubHealthQuery } from '../shell/health.ts';
import { safeReturn } from './return-to.ts';

/** What a failed sign-in's code means to the person at the sign-in page (the callback sends them here). */
const failures: Record<string, string> = {
  idp_unavailable:
    'The identity provider did not answer. Try again in a moment, or sign in as the break-glass admin.',
  sign_in_failed: 'The identity provider did not let this sign-in through. Start it again.',
  invalid_request: 'That sign-in link was stale or started in another browser. Start it again here.',
  session_expired: 'Your session ended. Sign in again to go on.',
  not_found: 'Sign-in through an identity provider is not configured on this hub.',
};

export interface SignInSearch {
  error?: string;
  returnTo?: string;
}

/** The IdP button and, where the hub has one, the break-glass admin's form; a failed sign-in said in words. */
export function SignInPage() {
  const search = useHubSearch('/sign-in');
  const health = useQuery(hubHealthQuery);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const breakGlass = useMutation({
    mutationFn: () => hub.post('/api/auth/break-glass/login', { body: { email, password } }),
    // A full load: the pages of a cluster (/c/<id>/…) are the agent's, outside this router.
    onSuccess: () => window.location.assign(safeReturn(search.returnTo)),
  });
  const returnTo = safeReturn(search.returnTo);
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 p-6 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-5 flex items-center gap-2 text-lg font-semibold">
          <span
            aria-hidden="true"
            className="inline-block h-6 w-6 rounded-full bg-teal-700 text-center text-sm leading-6 text-white"
          >
            ◆
          </span>
          <h1>Sign in to Binnacle</h1>
        </div>
        {search.error && (
          <p
            role="alert"
            className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            {failures[search.error] ?? 'The sign-in did not complete. Start it again.'}{' '}
            <span className="font-mono text-xs">({search.error})</span>
          </p>
        )}
        {search.returnTo?.startsWith('/accept-invitation') && health.data?.invitations === false && (
          <div className="mb-4">
            <InvitationsUnavailable to="invitee" />
          </div>
        )}
        {health.isPending ? (
          <Loading what="the ways to sign in" />
        ) : health.isError ? (
          <ErrorMessage error={health.error} what="the hub" />
        ) : (
          <div className="flex flex-col gap-5">
            {health.data.oidc && (
              <a
                href={`/api/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`}
                className="block rounded-md bg-teal-700 px-3 py-2 text-center text-sm font-medium text-white hover:bg-teal-800"
              >
                Sign in with your identity provider
              </a>
            )}
            {health.data.breakGlass && (
              <form
                aria-label="Break-glass admin"
                className="flex flex-col gap-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  breakGlass.mutate();
                }}
              >
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {health.data.oidc ? 'Or, when the identity provider is down: ' : ''}the break-glass admin
                </p>
                <Field
                  label="E-mail"
                  type="email"
                  autoComplete="username"
                  required
                  value={email}
                  onText={setEmail}
                />
                <Field
                  label="Password"
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onText={setPassword}
                />
                <button
                  type="submit"
                  disabled={breakGlass.isPending}
                  className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
                >
                  {breakGlass.isPending ? 'Signing in…' : 'Sign in'}
                </button>
                {breakGlass.isError && <ErrorMessage error={breakGlass.error} what="you in" verb="sign" />}
              </form>
            )}
            {!health.data.oidc && !health.data.breakGlass && (
              <p className="text-sm">
                This hub has no way to sign in yet: configure OIDC or the break-glass admin (docs/hub.md).
              </p>
            )}
          </div>
        )}
      </div>
    </main>
  );
}
