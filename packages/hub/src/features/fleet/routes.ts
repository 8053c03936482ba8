import { errorResponses } from '@binnacle/common/server';
import type { TSchema } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import type { Principal } from '../../security/principal.ts';
import {
  AuditQuery,
  CertificateRow,
  FindingRow,
  fleetAnswer,
  fleetRowLimits,
  NamespaceQuery,
  PackageRow,
  ProblemRow,
  SearchQuery,
  SearchRow,
} from './schemas.ts';
import { type FleetQuery, type FleetView, fleetView } from './service.ts';
import { auditView, certificatesView, packagesView, problemsView, searchView } from './views.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'clock' | 'database' | 'fleetLimit' | 'log' | 'replicas' | 'tunnels'
>;

const limited =
  'Every cluster of the organisation is asked at once, as the caller (its RBAC trims its part), each within 10 s; partial results, with the clusters that did not answer in errors. Counts against 30 fan-out calls per minute per user, shared with the organisation-wide MCP (429 with Retry-After past it).';

interface FleetRoute {
  path: string;
  summary: string;
  querystring: TSchema;
  answer: TSchema;
  view: (ctx: Deps, principal: Principal, query: FleetQuery) => FleetView<object>;
}

const fleetRouteTable: FleetRoute[] = [
  {
    path: '/api/fleet/problems',
    summary: "Every cluster's dashboard problems (failing pods and workloads, certificates, danger findings)",
    querystring: NamespaceQuery,
    answer: fleetAnswer(ProblemRow, 'newest first'),
    view: problemsView,
  },
  {
    path: '/api/fleet/certs',
    summary: "Every cluster's TLS Secrets and cert-manager Certificates with their expiry",
    querystring: NamespaceQuery,
    answer: fleetAnswer(CertificateRow, 'most urgent first: severity, then days left'),
    view: certificatesView,
  },
  {
    path: '/api/fleet/audit',
    summary:
      "Every cluster's best-practice audit findings, with each cluster's passing/warning/danger counts",
    querystring: AuditQuery,
    answer: fleetAnswer(FindingRow, 'danger before warning'),
    view: auditView,
  },
  {
    path: '/api/fleet/packages',
    summary:
      "Every cluster's installed packages (Helm, chart labels, CRDs, GitOps) with the Helm releases' upgrade check",
    querystring: NamespaceQuery,
    answer: fleetAnswer(PackageRow, 'upgrades available first, then by chart'),
    view: packagesView,
  },
  {
    path: '/api/fleet/search',
    summary: 'Free-text search over the objects the caller may list in every cluster',
    querystring: SearchQuery,
    answer: fleetAnswer(SearchRow, "each cluster's best matches first, the clusters taking turns"),
    view: searchView,
  },
];

/** GET /api/fleet/*: one view across every cluster of the caller's organisation (docs/fleet.md). */
export function fleetRoutes(app: HubApp, ctx: Deps): void {
  for (const route of fleetRouteTable) {
    app.get(
      route.path,
      {
        config: access('viewer'),
        schema: {
          tags: ['fleet'],
          summary: route.summary,
          description: limited,
          querystring: route.querystring,
          response: { 200: route.answer, ...errorResponses },
        },
      },
      (request) => {
        const principal = principalOf(request);
        const query = request.query as Omit<FleetQuery, 'limit'> & { limit?: number };
        const limit = query.limit ?? fleetRowLimits.defaultLimit;
        return fleetView(ctx, principal, route.view(ctx, principal, { ...query, limit }), limit);
      },
    );
  }
}
