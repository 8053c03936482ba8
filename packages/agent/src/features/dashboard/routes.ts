import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { AtParam, requestedMoment, requestedNamespaces } from '../../http/query.ts';
import { apiKindFields } from '../../http/schemas.ts';
import { CertificateSummary } from '../../scope/certificates/schemas.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import type { DashboardContext } from './module.ts';
import { crdCounts, dashboard } from './service.ts';

const Counted = (fields: string[]) => Type.Object(Object.fromEntries(fields.map((f) => [f, Type.Integer()])));
const source = Type.Union([Type.Literal('health'), Type.Literal('certificate'), Type.Literal('audit')], {
  description:
    'health: the object runs badly; certificate: expired, expiring within 7 days or unreadable; audit: a danger finding',
});
const Problem = Type.Object({
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  status: Type.String(),
  reason: Type.String(),
  message: Type.String(),
  ageSeconds: Type.Integer(),
  source,
  check: Type.Optional(Type.String({ description: 'the audit check that found it (audit only)' })),
});
const ProblemGroup = Type.Object({
  severity: Type.Union([Type.Literal('critical'), Type.Literal('warning')], {
    description:
      'critical: broken now (a failing pod or workload, a node not ready, a certificate expired or unreadable); warning: at risk (pending past its grace, a certificate expiring within 7 days, a danger finding)',
  }),
  source,
  reason: Type.String({
    description: "a pod's status (CrashLoopBackOff), a workload's state, an audit check's title",
  }),
  check: Type.Optional(Type.String({ description: 'the audit check id (audit only)' })),
  kinds: Type.Array(Type.String()),
  count: Type.Integer({ description: 'objects in the group' }),
  objects: Type.Array(
    Type.Object({
      kind: Type.String(),
      namespace: Type.Optional(Type.String()),
      name: Type.String(),
      status: Type.String(),
      message: Type.String(),
      ageSeconds: Type.Integer(),
    }),
    { description: 'the oldest 10 of them' },
  ),
});
const RecentEvent = Type.Object({
  type: Type.String(),
  reason: Type.String(),
  message: Type.String(),
  count: Type.Integer(),
  lastSeen: Type.Optional(Type.String()),
  source: Type.String({ description: 'who reported it: Flux, Argo CD, kubelet, scheduler or the component' }),
  involvedObject: Type.Object({
    kind: Type.Optional(Type.String()),
    namespace: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
  }),
});
const RoutineEvents = Type.Object(
  {
    routine: Type.Literal(true),
    source: Type.String(),
    count: Type.Integer({ description: 'events folded' }),
    reasons: Type.Array(Type.String(), { description: 'their reasons, most frequent first' }),
    lastSeen: Type.Optional(Type.String()),
    events: Type.Array(RecentEvent, { description: 'the newest 20 of them' }),
  },
  { description: 'routine Normal events of one source, folded (a Warning is never folded)' },
);
const Dashboard = Type.Object({
  cluster: Type.Object({
    name: Type.String(),
    platform: Type.String(),
    version: Type.Optional(Type.String()),
    connected: Type.Boolean(),
  }),
  health: Type.Object({
    ...Counted(['healthy', 'warning', 'error', 'warningEvents']).properties,
    failingStatuses: Type.Array(Type.String(), {
      description:
        "kubectl's status texts of the failing pods (counted in error), each once: what a link to the pods table filters by",
    }),
    warningStatuses: Type.Array(Type.String(), {
      description: "kubectl's status texts of the pods with warnings, each once",
    }),
  }),
  problems: Type.Array(Problem, {
    description:
      'one row per object and finding, at most 100 (the fleet view merges these); problemGroups groups them',
  }),
  problemGroups: Type.Array(ProblemGroup, {
    description:
      'the problems grouped by what found them and why (a pod status, a check), critical first, then the most objects',
  }),
  certificates: Type.Optional(
    Type.Object(CertificateSummary.properties, {
      description:
        'TLS Secrets and cert-manager Certificates by severity; absent when the caller may not read Secrets',
    }),
  ),
  audit: Type.Optional(
    Type.Object(
      { passing: Type.Integer(), warning: Type.Integer(), danger: Type.Integer() },
      {
        description:
          'the best-practice audit (settings applied); absent while pods load or when it cannot run',
      },
    ),
  ),
  auditError: Type.Optional(
    Type.Object(
      { error: Type.String(), code: Type.String() },
      {
        description:
          "why the audit cannot run: the API server's 403 to the agent listing pods (code forbidden), or its failure to list them; absent while pods load",
      },
    ),
  ),
  counts: Type.Object({
    pods: Counted(['total', 'failing', 'running', 'pending', 'succeeded']),
    deployments: Counted(['total', 'available', 'unavailable']),
    statefulSets: Counted(['total', 'ready']),
    daemonSets: Counted(['total', 'ready']),
    jobs: Counted(['total', 'active', 'succeeded', 'failed']),
    cronJobs: Counted(['total', 'suspended']),
    nodes: Counted(['total', 'ready', 'notReady']),
    pvcs: Counted(['total', 'bound', 'pending']),
    services: Type.Integer(),
    ingresses: Type.Integer(),
    configMaps: Type.Integer(),
    secrets: Type.Integer(),
    namespaces: Type.Integer(),
  }),
  recentEvents: Type.Array(Type.Union([RecentEvent, RoutineEvents]), {
    description: 'the newest events, newest first; routine Normal events of one source folded into one line',
  }),
  loading: Type.Array(Type.String(), { description: 'kinds still loading (counted as zero)' }),
  at: Type.Optional(Type.String({ description: 'with `at`: the moment shown (RFC 3339)' })),
  notKept: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'with `at`: kinds whose kept past cannot say (Events, a kind synced since), counted as zero',
    }),
  ),
});

export function dashboardRoutes(app: App, ctx: DashboardContext): void {
  app.get(
    '/api/dashboard',
    {
      config: callerAware,
      schema: {
        tags: ['dashboard'],
        summary:
          'Cluster, health, problems, counts and recent events; with `at`, the health, runtime problems and counts as they were then (time travel: no certificates, audit or events)',
        querystring: Query({
          namespace: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 63,
              description: 'count namespaced kinds in this namespace only',
            }),
          ),
          at: Type.Optional(AtParam),
        }),
        response: { 200: Dashboard, ...errorResponses },
      },
    },
    async (request) => {
      const at = requestedMoment(request.query.at, 'at');
      const view = await callerView(ctx, request.caller, requestedNamespaces(request.query));
      return dashboard(ctx, view, await readAuditSettings(ctx), { at });
    },
  );

  app.get(
    '/api/dashboard/crds',
    {
      config: callerAware,
      schema: {
        tags: ['dashboard'],
        summary: 'Custom resource kinds and their object counts, most used first',
        querystring: Query({}),
        response: {
          200: Type.Object({
            items: Type.Array(Type.Object({ ...apiKindFields, count: Type.Integer() })),
            loading: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => crdCounts(ctx, await callerView(ctx, request.caller)),
  );
}
