import { useMutation, useQuery } from '@tanstack/react-query';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ApiError } from '../../api/errors.ts';
import { applyTheme } from '../../features/shell/theme.ts';
import { AppFrame, navLinkLook } from '../../ui/AppFrame.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { hub } from '../api.ts';
import { usePreferences } from '../preferences/preferences.ts';
import { goTo } from '../router.tsx';
import { HubLink } from './HubLink.tsx';
import { OrgSwitcher } from './OrgSwitcher.tsx';

export const accountQuery = {
  queryKey: ['account'],
  queryFn: ({ signal }: { signal: AbortSignal }) => hub.get('/api/account', { signal }),
};

/** The sidebar: each area's path and name. */
const hubAreas: [string, string][] = [
  ['/', 'Clusters'],
  ['/fleet', 'Fleet'],
  ['/compare', 'Compare'],
  ['/members', 'Members'],
  ['/audit', 'Audit log'],
  ['/settings/sso', 'Single sign-on'],
  ['/settings/billing', 'Billing'],
  ['/tokens', 'Access tokens'],
  ['/settings/preferences', 'Preferences'],
];

/** The hub's pages for a signed-in person: the organisation they act in, who they are, the hub's areas. */
export function HubShell() {
  const location = useRouterState({ select: (state) => state.location });
  const account = useQuery(accountQuery);
  const preferences = usePreferences();
  const theme = preferences.data?.theme;
  // The theme you chose follows you to every browser you sign in from.
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
  const signOut = useMutation({
    mutationFn: () => hub.post('/api/auth/signout'),
    onSuccess: (answer) => {
      // The IdP's own session ends on its logout page; it sends the browser back to the hub afterwards.
      if (answer.logoutUrl) window.location.assign(answer.logoutUrl);
      else void goTo('/sign-in');
    },
  });
  const signedOut = account.error instanceof ApiError && account.error.status === 401;
  // Once: while the router moves to the sign-in page, this shell still sees the new location for a moment.
  const leaving = location.pathname === '/sign-in';
  useEffect(() => {
    if (signedOut && !leaving) void goTo('/sign-in', { search: { returnTo: location.href }, replace: true });
  }, [signedOut, leaving, location.href]);
  const path = location.pathname;
  const areas = hubAreas.map(([to, label]) => (
    <li key={to}>
      {/* A cluster the hub serves a page for (/c/<id>/…, offline) is one of the Clusters. */}
      <HubLink
        to={to}
        className={navLinkLook(to === '/' ? path === '/' || path.startsWith('/c/') : path.startsWith(to))}
      >
        {label}
      </HubLink>
    </li>
  ));
  const header = (
    <>
      <div className="min-w-0">
        <p className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Organization</p>
        {account.data ? (
          <OrgSwitcher account={account.data} />
        ) : (
          <p className="truncate font-medium">{account.isError ? 'unknown' : 'loading…'}</p>
        )}
      </div>
      {account.data && (
        <span className="rounded-full border border-slate-300 px-2 py-0.5 text-xs dark:border-slate-700">
          {account.data.currentOrg.role}
        </span>
      )}
      <div className="ml-auto flex items-center gap-3 text-sm">
        {account.data && (
          <span className="text-slate-600 dark:text-slate-400">{account.data.user.email}</span>
        )}
        <button
          type="button"
          disabled={signOut.isPending}
          className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          onClick={() => signOut.mutate()}
        >
          Sign out
        </button>
      </div>
    </>
  );
  return (
    <AppFrame areas={areas} header={header}>
      {account.isPending || signedOut ? (
        <Loading what="your account" />
      ) : account.isError ? (
        <ErrorMessage error={account.error} what="your account" />
      ) : (
        <Outlet />
      )}
    </AppFrame>
  );
}
