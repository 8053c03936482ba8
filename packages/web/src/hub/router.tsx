import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { compareSearch } from '../features/compare/search.ts';
import { NotFound } from '../features/shell/NotFound.tsx';
import { PageError } from '../features/shell/PageError.tsx';
import { AuditPage, type AuditSearch } from './audit/AuditPage.tsx';
import { SignInPage, type SignInSearch } from './auth/SignInPage.tsx';
import { BillingPage, type BillingSearch } from './billing/BillingPage.tsx';
import { ClustersPage } from './clusters/ClustersPage.tsx';
import { ClusterUnavailablePage } from './clusters/ClusterUnavailablePage.tsx';
import { HubComparePage } from './compare/HubComparePage.tsx';
import { FleetPage, type FleetSearch, fleetTabs } from './fleet/FleetPage.tsx';
import { AcceptInvitationPage, type AcceptSearch } from './members/AcceptInvitationPage.tsx';
import { MembersPage } from './members/MembersPage.tsx';
import { PreferencesPage } from './preferences/PreferencesPage.tsx';
import { StartPage } from './preferences/StartPage.tsx';
import { HubShell } from './shell/HubShell.tsx';
import { SsoPage } from './sso/SsoPage.tsx';
import { TokensPage } from './tokens/TokensPage.tsx';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFound });

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  component: SignInPage,
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    error: text(search.error),
    returnTo: text(search.returnTo),
  }),
});

/** Every page but sign-in: the shell sends a visitor without a session to sign in first. */
const signedInRoute = createRoute({ getParentRoute: () => rootRoute, id: 'signed-in', component: HubShell });

const clustersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  component: ClustersPage,
});
const fleetRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/fleet',
  component: FleetPage,
  validateSearch: (search: Record<string, unknown>): FleetSearch => ({
    tab: fleetTabs.find((tab) => tab === search.tab),
    // A number-like search (`?q=404`) arrives as a number.
    q: text(typeof search.q === 'number' ? String(search.q) : search.q),
  }),
});
const compareRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/compare',
  component: HubComparePage,
  validateSearch: compareSearch,
});
const startRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/start',
  component: StartPage,
});
const tokensRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/tokens',
  component: TokensPage,
});
const auditRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/audit',
  component: AuditPage,
  validateSearch: (search: Record<string, unknown>): AuditSearch => ({
    action: text(search.action),
    // The router reads `?cursor=123` as a number.
    cursor: Number.isSafeInteger(search.cursor) ? (search.cursor as number) : undefined,
  }),
});
const ssoRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/settings/sso',
  component: SsoPage,
});
const preferencesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/settings/preferences',
  component: PreferencesPage,
});
const billingRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/settings/billing',
  component: BillingPage,
  validateSearch: (search: Record<string, unknown>): BillingSearch => ({
    checkout: search.checkout === 'success' || search.checkout === 'cancelled' ? search.checkout : undefined,
  }),
});
const membersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/members',
  component: MembersPage,
});
/** A cluster's own pages are its agent's; the hub serves this path only when it cannot reach the agent (ADR 0070). */
const clusterUnavailableRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/c/$clusterId/$',
  component: ClusterUnavailablePage,
});
const acceptRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/accept-invitation',
  component: AcceptInvitationPage,
  validateSearch: (search: Record<string, unknown>): AcceptSearch => ({ token: text(search.token) }),
});

/** The hub's own pages, at its root (each cluster's pages are its agent's, under /c/<cluster_id>/). */
export const hubRouter = createRouter({
  routeTree: rootRoute.addChildren([
    signInRoute,
    signedInRoute.addChildren([
      clustersRoute,
      fleetRoute,
      compareRoute,
      startRoute,
      tokensRoute,
      membersRoute,
      auditRoute,
      ssoRoute,
      billingRoute,
      preferencesRoute,
      acceptRoute,
      clusterUnavailableRoute,
    ]),
  ]),
  defaultPreload: 'intent',
  // As the agent's pages: a page that throws shows the error inside the hub's shell.
  defaultErrorComponent: PageError,
});

/** Where the hub's pages navigate: the typed `navigate` knows only the app's registered (agent) routes. */
export const goTo = (to: string, options: { search?: Record<string, unknown>; replace?: boolean } = {}) =>
  (
    hubRouter.navigate as (target: {
      to: string;
      search?: Record<string, unknown>;
      replace?: boolean;
    }) => Promise<void>
  )({
    to,
    ...options,
  });
