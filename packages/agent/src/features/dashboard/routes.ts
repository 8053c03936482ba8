import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { AgentContext, App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { CertificateSummary } from '../certificates/schemas.ts';
import { readAuditSettings } from '../config/service.ts';
import { crdCounts, dashboard } from './service.ts';

const Counted = (fields: string[]) => Type.Object(Object.fromEntries(fields.map((f) => [f, Type.Integer()])));
const Dashboard = Type.Object({
  cluster: Type.Object({
    name: Type.String(),
    platform: Type.String(),
    version: Type.Optional(Type.String()),
    connected: Type.Boolean(),
  }),
  health: Counted(['healthy', 'warning', 'error', 'warningEvents']),
  problems: Type.Array(
    Type.Object({
      kind: Type.String(),
      namespace: Type.Optional(Type.String()),
      name: Type.String(),
      status: Type.String(),
      reason: Type.String(),
      message: Type.String(),
      ageSeconds: Type.Integer(),
      source: Type.Union([Type.Literal('health'), Type.Literal('certificate'), Type.Literal('audit')], {
        description:
          'health: the object runs badly; certificate: expired, expiring within 7 days or unreadable; audit: a danger finding',
      }),
    }),
  ),
  certificates: Type.Optional(
    Type.Object(CertificateSummary.properties, {
      description:
        'TLS Secrets and cert-manager Certificates by severity; absent when the caller may not read Secrets',
    }),
  ),
  audit: Type.Optional(
    Type.Object(
      { passing: Type.Integer(), warning: Type.Integer(), danger: Type.Integer() },
      { description: 'the best-practice audit (settings applied); absent while pods cannot be listed' },
    ),
  ),
  counts: Type.Object({
    pods: Counted(['total', 'running', 'pending', 'failed', 'succeeded']),
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
  recentEvents: Type.Array(
    Type.Object({
      type: Type.String(),
      reason: Type.String(),
      message: Type.String(),
      count: Type.Integer(),
      lastSeen: Type.Optional(Type.String()),
      involvedObject: Type.Object({
        kind: Type.Optional(Type.String()),
        namespace: Type.Optional(Type.String()),
        name: Type.Optional(Type.String()),
      }),
    }),
  ),
  loading: Type.Array(Type.String(), { description: 'kinds still loading (counted as zero)' }),
});

export function dashboardRoutes(app: App, ctx: AgentContext): void {
  app.get(
    '/api/dashboard',
    {
      config: callerAware,
      schema: {
        tags: ['dashboard'],
        summary: 'Cluster, health, problems, counts and recent events',
        querystring: Query({
          namespace: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 63,
              description: 'count namespaced kinds in this namespace only',
            }),
          ),
        }),
        response: { 200: Dashboard, ...errorResponses },
      },
    },
    async (request) => {
      const view = await callerView(ctx, request.caller, requestedNamespaces(request.query));
      return dashboard(ctx, view, await readAuditSettings(ctx));
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
            items: Type.Array(
              Type.Object({
                group: Type.String(),
                kind: Type.String(),
                name: Type.String(),
                version: Type.String(),
                namespaced: Type.Boolean(),
                count: Type.Integer(),
              }),
            ),
            loading: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => crdCounts(ctx, await callerView(ctx, request.caller)),
  );
}
