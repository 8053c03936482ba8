import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import { selfUpgradeConfigured } from '../../config/agent-config.ts';
import type { App } from '../../context.ts';
import { callerAware, probe } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { GroupParam, KindParam } from '../../http/schemas.ts';
import { ReleaseChecker } from '../../scope/version-check.ts';
import { capabilities } from './capabilities.ts';
import { clusterInfo } from './cluster-info.ts';
import { diagnostics, diagnosticsMarkdown } from './diagnostics.ts';
import { healthReport } from './health.ts';
import type { HealthContext } from './module.ts';

const Tier = Type.Object({
  name: Type.String(),
  state: Type.String(),
  kinds: Type.Integer(),
  synced: Type.Integer(),
  startedAt: Type.Optional(Type.String()),
  syncedAt: Type.Optional(Type.String()),
  durationMs: Type.Optional(Type.Integer()),
});

const Health = Type.Object({
  status: Type.Enum(['starting', 'healthy', 'degraded', 'disconnected']),
  version: Type.String(),
  connection: Type.Object({
    state: Type.String(),
    error: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
  }),
  sync: Type.Object({ ready: Type.Boolean(), tiers: Type.Array(Tier) }),
  resourceCount: Type.Integer(),
  timeline: Type.Object(
    {
      store: Type.Enum(['memory', 'sqlite']),
      state: Type.Enum(['ok', 'failing'], {
        description: 'failing: the store refuses writes; changes are streamed now and stored once it accepts',
      }),
      error: Type.Optional(Type.String({ description: "the store's last refusal while failing" })),
      failingSince: Type.Optional(Type.String()),
      attempts: Type.Integer({
        minimum: 0,
        description: 'failed attempts of this episode (retried with back-off)',
      }),
      backlog: Type.Integer({ minimum: 0, description: 'changes streamed and waiting to be stored' }),
      storeErrors: Type.Integer({ minimum: 0, description: 'writes the store refused since the start' }),
      unstored: Type.Integer({
        minimum: 0,
        description: 'changes streamed but never stored since the start (the backlog was full)',
      }),
    },
    { description: "the timeline's store and how its writes fare (status is degraded while it fails)" },
  ),
  runtime: Type.Object({
    node: Type.String(),
    pid: Type.Integer(),
    rssMB: Type.Number(),
    heapUsedMB: Type.Number(),
    uptimeSeconds: Type.Integer(),
  }),
});

const VersionCheck = Type.Object({
  currentVersion: Type.String(),
  latestVersion: Type.Optional(Type.String()),
  updateAvailable: Type.Boolean(),
  releaseUrl: Type.Optional(Type.String()),
  releaseNotes: Type.Optional(Type.String()),
  checkedAt: Type.String(),
  error: Type.Optional(Type.String()),
  selfUpgrade: Type.Boolean({
    description:
      'the agent can move itself to latestVersion: POST /api/agent/self-upgrade {"tag": latestVersion} (installed by charts/binnacle-agent with rbac.selfUpgrade=true)',
  }),
});

const ClusterInfo = Type.Object({
  context: Type.String(),
  cluster: Type.String(),
  server: Type.String(),
  platform: Type.String(),
  kubernetesVersion: Type.Optional(Type.String()),
  nodeCount: Type.Integer(),
  podCount: Type.Integer(),
  namespaceCount: Type.Integer(),
});

const Capabilities = Type.Object({
  exec: Type.Boolean(),
  logs: Type.Boolean(),
  portForward: Type.Boolean(),
  secrets: Type.Boolean(),
  debugContainers: Type.Boolean(),
  workloadWrites: Type.Object({
    deployments: Type.Boolean(),
    statefulSets: Type.Boolean(),
    daemonSets: Type.Boolean(),
  }),
  nodeWrites: Type.Boolean(),
  localTerminal: Type.Boolean(),
  authEnabled: Type.Boolean(),
  deployment: Type.Object({ mode: Type.String() }),
  namespace: Type.Optional(Type.String()),
  identity: Type.Object(
    {
      user: Type.String(),
      groups: Type.Array(Type.String()),
      impersonated: Type.Boolean({
        description: "true: the caller's identity, impersonated; false: the agent's own credentials",
      }),
    },
    { description: 'who the agent asks the Kubernetes API server as for this caller' },
  ),
  agent: Type.Object(
    { user: Type.String(), groups: Type.Array(Type.String()) },
    { description: "the agent's own credentials, which fill its cache" },
  ),
  view: Type.Object(
    {
      namespaces: Type.Optional(
        Type.Array(Type.String(), {
          description: 'where the caller may list pods (absent: every namespace; empty: none)',
        }),
      ),
      hiddenKinds: Type.Array(Type.String(), {
        description: 'kinds the cluster-wide views leave out for this caller',
      }),
      unreadableKinds: Type.Array(Type.String(), {
        description: "kinds the agent's own identity may not list: nobody sees them through this agent",
      }),
    },
    { description: 'what the dashboard, topology, timeline and other cluster-wide views show this caller' },
  ),
  kind: Type.Optional(
    Type.Object(
      {
        kind: Type.String(),
        group: Type.String(),
        namespaced: Type.Boolean(),
        list: Type.Enum(['all', 'some', 'none']),
        update: Type.Boolean(),
        delete: Type.Boolean(),
      },
      {
        description:
          'with ?kind=: what the caller may do with that kind, in the namespace asked or cluster-wide',
      },
    ),
  ),
});

const AuthMe = Type.Object({
  authEnabled: Type.Boolean(),
  authMode: Type.String(),
  username: Type.Optional(Type.String()),
  groups: Type.Optional(Type.Array(Type.String())),
});

const tags = ['health'];

export function healthRoutes(app: App, ctx: HealthContext): void {
  const releases = new ReleaseChecker(ctx.version, ctx.config.releaseFeedUrl);
  app.get(
    '/api/health',
    {
      // The kubelet's probes reach it on the agent's own port, in cloud mode too.
      config: { ...callerAware, ...probe },
      schema: {
        tags,
        summary: 'Status, per-tier sync progress and runtime figures',
        querystring: Query({}),
        response: { 200: Health, ...errorResponses },
      },
    },
    () => healthReport(ctx),
  );

  app.get(
    '/api/version-check',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Whether a newer release exists (never fails when the feed is down)',
        querystring: Query({}),
        response: { 200: VersionCheck, ...errorResponses },
      },
    },
    async () => ({ ...(await releases.check()), selfUpgrade: selfUpgradeConfigured(ctx.config) }),
  );

  app.get(
    '/api/diagnostics',
    {
      schema: {
        tags,
        summary: 'A sanitized report to paste into a bug (JSON, or Markdown with format=markdown)',
        querystring: Query({ format: Type.Optional(Type.Enum(['json', 'markdown'])) }),
        response: {
          200: {
            description: 'The report',
            content: {
              'application/json': { schema: Type.Object({}, { additionalProperties: true }) },
              'text/markdown': { schema: Type.String({ description: 'with format=markdown' }) },
            },
          },
          ...errorResponses,
        },
      },
    },
    (request, reply) => {
      const report = diagnostics(ctx);
      if (request.query.format === 'markdown')
        return reply
          .type('text/markdown; charset=utf-8')
          .serializer(String)
          .send(diagnosticsMarkdown(report));
      return report;
    },
  );

  app.get(
    '/api/auth/me',
    {
      // Answered without a signed-in caller too: the UI learns from it whether sign-in is on.
      config: { ...callerAware, signInOptional: true },
      schema: {
        tags,
        summary:
          'The current user: the person signed in (--auth-mode proxy|oidc) or forwarded by the hub (cloud mode); none in mode none',
        querystring: Query({}),
        response: { 200: AuthMe, ...errorResponses },
      },
    },
    (request) => {
      const authMode = ctx.auth?.settings.mode ?? (ctx.cloud ? 'cloud' : 'none');
      return request.caller
        ? {
            authEnabled: true,
            authMode,
            username: request.caller.user,
            groups: [...request.caller.groups],
          }
        : { authEnabled: ctx.auth !== undefined, authMode };
    },
  );

  app.get(
    '/api/cluster-info',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Context, platform, version and counts of the cluster',
        querystring: Query({}),
        response: { 200: ClusterInfo, ...errorResponses },
      },
    },
    async (request) => clusterInfo(ctx, await callerView(ctx, request.caller)),
  );

  app.get(
    '/api/capabilities',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Features available given RBAC (access reviews) and flags, the identity the agent acts as and what its views show',
        querystring: Query({
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          kind: Type.Optional(KindParam),
          group: Type.Optional(GroupParam),
        }),
        response: { 200: Capabilities, ...errorResponses },
      },
    },
    (request) => capabilities(ctx, request.query, request.caller),
  );
}
