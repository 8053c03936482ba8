import { createRootRoute, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { basePath } from '../api/client.ts';
import { accessSearch } from '../features/access/search.ts';
import { type AuditSearch, auditViews, categories, severities } from '../features/audit/types.ts';
import { type CertificatesSearch, certSeverities } from '../features/certificates/types.ts';
import { compareSearch } from '../features/compare/search.ts';
import { type CostSearch, costTabs } from '../features/cost/types.ts';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';
import type { GitOpsSearch } from '../features/gitops/GitOpsPage.tsx';
import type { ReleasesSearch } from '../features/helm/ReleasesPage.tsx';
import {
  type ChartSearch,
  type ChartsSearch,
  chartsTabs,
  chartViews,
  type ReleaseSearch,
  releaseTabs,
} from '../features/helm/search.ts';
import { type ImagesSearch, imageTabs } from '../features/images/search.ts';
import { costWindows } from '../features/metrics/windows.ts';
import type { NetpolSearch } from '../features/netpol/query.ts';
import { protocols } from '../features/netpol/types.ts';
import { ResourcesPage, type ResourcesSearch } from '../features/resources/ResourcesPage.tsx';
import { NotFound } from '../features/shell/NotFound.tsx';
import { PageError } from '../features/shell/PageError.tsx';
import { Shell } from '../features/shell/Shell.tsx';
import { changeTypes, TimelinePage, type TimelineSearch } from '../features/timeline/TimelinePage.tsx';
import type { ChangesBetweenSearch } from '../features/timetravel/ChangesBetweenPage.tsx';
import { groupings } from '../features/topology/graph.ts';
import { TopologyPage, type TopologySearch } from '../features/topology/TopologyPage.tsx';
import { type TrafficSearch, trafficWindows } from '../features/traffic/search.ts';
import { readinessStatuses, releaseParam, type UpgradeSearch } from '../features/upgrade/types.ts';

/** Every page takes the namespace filter from the URL, so a link keeps what the reader was looking at. */
export interface ScopeSearch {
  namespace?: string;
}
const scopeSearch = (search: Record<string, unknown>): ScopeSearch =>
  typeof search.namespace === 'string' && search.namespace !== '' ? { namespace: search.namespace } : {};

const rootRoute = createRootRoute({
  component: Shell,
  notFoundComponent: NotFound,
  validateSearch: scopeSearch,
});

const dashboardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: DashboardPage });

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
/** A moment in the URL (`at=`, time travel): an RFC 3339 time the browser can read, else none. */
const moment = (value: unknown) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;

const timelineRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/timeline',
  component: TimelinePage,
  validateSearch: (search: Record<string, unknown>): TimelineSearch => {
    const type = changeTypes.find((t) => t === search.type);
    return { kind: text(search.kind), name: text(search.name), ...(type ? { type } : {}) };
  },
});

const topologyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topology',
  component: TopologyPage,
  validateSearch: (search: Record<string, unknown>): TopologySearch => {
    const group = groupings.find((g) => g === search.group);
    return {
      ...(search.traffic === true ? { traffic: true as const } : {}),
      hide: text(search.hide),
      health: text(search.health),
      expand: text(search.expand),
      ...(group ? { group } : {}),
      at: moment(search.at),
      replayFrom: moment(search.replayFrom),
      replayTo: moment(search.replayTo),
    };
  },
});

const changesBetweenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/timeline/between',
  component: lazyRouteComponent(
    () => import('../features/timetravel/ChangesBetweenPage.tsx'),
    'ChangesBetweenPage',
  ),
  validateSearch: (search: Record<string, unknown>): ChangesBetweenSearch => ({
    from: moment(search.from),
    to: moment(search.to),
  }),
});

const resourcesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/resources/$kind',
  component: ResourcesPage,
  validateSearch: (search: Record<string, unknown>): ResourcesSearch => ({
    q: text(search.q),
    labelSelector: text(search.labelSelector),
    status: text(search.status),
    sort: text(search.sort),
    order: search.order === 'desc' ? 'desc' : undefined,
    wide: search.wide === true || search.wide === 'true' ? true : undefined,
    at: moment(search.at),
  }),
});

const resourceDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/resources/$kind/$namespace/$name',
  component: lazyRouteComponent(
    () => import('../features/resources/ResourceDetailPage.tsx'),
    'ResourceDetailPage',
  ),
  validateSearch: (search: Record<string, unknown>): { at?: string } => ({ at: moment(search.at) }),
});

const revisionNumber = (value: unknown) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const helmRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/helm',
  component: lazyRouteComponent(() => import('../features/helm/ReleasesPage.tsx'), 'ReleasesPage'),
  validateSearch: (search: Record<string, unknown>): ReleasesSearch => ({ q: text(search.q) }),
});
const helmReleaseRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/helm/$namespace/$name',
  component: lazyRouteComponent(() => import('../features/helm/ReleasePage.tsx'), 'ReleasePage'),
  validateSearch: (search: Record<string, unknown>): ReleaseSearch => ({
    tab: releaseTabs.find((t) => t === search.tab),
    revision: revisionNumber(search.revision),
    from: revisionNumber(search.from),
    to: revisionNumber(search.to),
  }),
});
const helmChartsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/helm/charts',
  component: lazyRouteComponent(() => import('../features/helm/ChartsPage.tsx'), 'ChartsPage'),
  validateSearch: (search: Record<string, unknown>): ChartsSearch => ({
    tab: chartsTabs.find((t) => t === search.tab),
    q: text(search.q),
  }),
});
const helmChartRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/helm/charts/$repo/$chart',
  component: lazyRouteComponent(() => import('../features/helm/ChartPage.tsx'), 'ChartPage'),
  validateSearch: (search: Record<string, unknown>): ChartSearch => ({
    version: text(search.version),
    view: chartViews.find((v) => v === search.view),
  }),
});

const gitopsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/gitops',
  component: lazyRouteComponent(() => import('../features/gitops/GitOpsPage.tsx'), 'GitOpsPage'),
  validateSearch: (search: Record<string, unknown>): GitOpsSearch => ({ q: text(search.q) }),
});
const applicationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/gitops/applications/$namespace/$name',
  component: lazyRouteComponent(() => import('../features/gitops/ApplicationPage.tsx'), 'ApplicationPage'),
});
const fluxRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/gitops/flux/$kind/$namespace/$name',
  component: lazyRouteComponent(() => import('../features/gitops/FluxPage.tsx'), 'FluxPage'),
});

const oneOf = <T extends string>(values: readonly T[], value: unknown) => values.find((v) => v === value);

// The audit, certificates and network policy pages load on their first visit: many sessions never open them.
const auditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/audit',
  component: lazyRouteComponent(() => import('../features/audit/AuditPage.tsx'), 'AuditPage'),
  validateSearch: (search: Record<string, unknown>): AuditSearch => ({
    category: oneOf(categories, search.category),
    severity: oneOf(severities, search.severity),
    view: oneOf(auditViews, search.view),
    q: text(search.q),
  }),
});

const certificatesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/certificates',
  component: lazyRouteComponent(
    () => import('../features/certificates/CertificatesPage.tsx'),
    'CertificatesPage',
  ),
  validateSearch: (search: Record<string, unknown>): CertificatesSearch => ({
    q: text(search.q),
    severity: oneOf(certSeverities, search.severity),
  }),
});

const accessRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/access',
  component: lazyRouteComponent(() => import('../features/access/AccessPage.tsx'), 'AccessPage'),
  validateSearch: accessSearch,
});

const upgradeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/upgrade',
  component: lazyRouteComponent(() => import('../features/upgrade/UpgradePage.tsx'), 'UpgradePage'),
  validateSearch: (search: Record<string, unknown>): UpgradeSearch => ({
    target: releaseParam(search.target),
    status: oneOf(readinessStatuses, search.status),
  }),
});

const compareRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/compare',
  component: lazyRouteComponent(() => import('../features/compare/ComparePage.tsx'), 'ComparePage'),
  validateSearch: compareSearch,
});

const networkPoliciesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/network-policies',
  component: lazyRouteComponent(
    () => import('../features/netpol/NetworkPoliciesPage.tsx'),
    'NetworkPoliciesPage',
  ),
  validateSearch: (search: Record<string, unknown>): NetpolSearch => ({
    source: text(search.source),
    sourceNamespace: text(search.sourceNamespace),
    sourceLabels: text(search.sourceLabels),
    destination: text(search.destination),
    // The router reads `port=8080` as a number; anything else stays text, for the agent to refuse by name.
    port: typeof search.port === 'number' ? search.port : text(search.port),
    protocol: oneOf(protocols, search.protocol),
    matrix: text(search.matrix),
  }),
});

// Like the audit: React Flow comes with the topology's chunk, the traffic page's own code on its first visit.
const trafficRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/traffic',
  component: lazyRouteComponent(() => import('../features/traffic/TrafficPage.tsx'), 'TrafficPage'),
  validateSearch: (search: Record<string, unknown>): TrafficSearch => ({
    since: oneOf(trafficWindows, search.since),
  }),
});

// Cost loads on its first visit too, with the chart it shares with the object pages.
const costRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/cost',
  component: lazyRouteComponent(() => import('../features/cost/CostPage.tsx'), 'CostPage'),
  validateSearch: (search: Record<string, unknown>): CostSearch => ({
    window: oneOf(
      costWindows.map(([w]) => w),
      search.window,
    ),
    tab: oneOf(costTabs, search.tab),
  }),
});

// The image browser loads on its first visit, from a pod's page or the sidebar.
const imagesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/images',
  component: lazyRouteComponent(() => import('../features/images/ImagesPage.tsx'), 'ImagesPage'),
  validateSearch: (search: Record<string, unknown>): ImagesSearch => {
    const layer = search.layer;
    const tab = oneOf(imageTabs, search.tab);
    return {
      image: text(search.image),
      pod: text(search.pod),
      pullSecrets: text(search.pullSecrets),
      platform: text(search.platform),
      path: text(search.path),
      q: text(search.q),
      order: search.order === 'size' ? 'size' : undefined,
      layer: typeof layer === 'number' && Number.isInteger(layer) && layer >= 0 ? layer : undefined,
      tab: tab === 'files' ? undefined : tab,
    };
  },
});

const terminalRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/terminal',
  component: lazyRouteComponent(
    () => import('../features/terminal/LocalTerminalPage.tsx'),
    'LocalTerminalPage',
  ),
});

const sessionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sessions',
  component: lazyRouteComponent(() => import('../features/portforward/SessionsPage.tsx'), 'SessionsPage'),
});

export const router = createRouter({
  routeTree: rootRoute.addChildren([
    dashboardRoute,
    resourcesRoute,
    accessRoute,
    compareRoute,
    resourceDetailRoute,
    topologyRoute,
    timelineRoute,
    changesBetweenRoute,
    helmRoute,
    helmReleaseRoute,
    helmChartsRoute,
    helmChartRoute,
    gitopsRoute,
    applicationRoute,
    fluxRoute,
    auditRoute,
    certificatesRoute,
    upgradeRoute,
    networkPoliciesRoute,
    costRoute,
    trafficRoute,
    imagesRoute,
    sessionsRoute,
    terminalRoute,
  ]),
  basepath: basePath || '/',
  defaultPreload: 'intent',
  // Each page's own boundary: a page that throws shows the error inside the shell, whose navigation still works.
  defaultErrorComponent: PageError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
