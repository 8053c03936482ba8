import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import { clusterIdentity } from '../../security/cluster-identity.ts';
import { listClusters } from '../../services/clusters/directory.ts';
import { agentRbac, agentRbacFile } from './agent-rbac.ts';
import { connectCluster, reconnectSteps } from './connect.ts';
import { createCluster, deleteCluster, findCluster, renameCluster, rotateClusterToken } from './service.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'audit' | 'billing' | 'clock' | 'config' | 'database' | 'log' | 'replicas' | 'tunnels'
>;

const Cluster = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  tokenHint: Type.String({ description: 'the last 4 characters of the agent token' }),
  tokenRotatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'last time its agent connected',
  }),
  agentVersion: Type.Union([Type.String(), Type.Null()]),
  connected: Type.Optional(
    Type.Boolean({ description: 'its agent holds a tunnel to this hub now (in lists)' }),
  ),
});
const WithToken = Type.Intersect([
  Cluster,
  Type.Object({ token: Type.String({ description: 'bnc_…: the agent token, shown once' }) }),
]);
const ClusterName = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  description: 'a DNS label: lower-case letters, digits and dashes',
});
const ClusterBody = Type.Object({ name: ClusterName }, { additionalProperties: false });
const ClusterParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function clusterRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/clusters',
    {
      config: access('viewer'),
      schema: {
        summary: 'Clusters of the current organization',
        tags: ['clusters'],
        querystring: Query({}),
        response: { 200: Type.Object({ items: Type.Array(Cluster) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await listClusters(ctx, principalOf(request).orgId) }),
  );
  app.post(
    '/api/clusters',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary: 'Register a cluster and mint its agent token (owner)',
        tags: ['clusters'],
        body: ClusterBody,
        response: { 201: WithToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createCluster(ctx, principalOf(request), request.body.name, request.ip);
    },
  );
  app.post(
    '/api/clusters/connect',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary:
          'Connect page: register a cluster and get the install values and commands for its agent (owner)',
        tags: ['clusters'],
        body: Type.Object(
          {
            name: ClusterName,
            alreadyRunning: Type.Optional(
              Type.Boolean({
                description: 'the agent already runs in that cluster: keep its values and bindings',
              }),
            ),
            outsideChart: Type.Optional(
              Type.Boolean({
                description:
                  'the agent runs outside charts/binnacle-agent (`binnacle agent --cloud-url`): the commands start it; GET /api/agent-rbac has the bindings it needs',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            cluster: WithToken,
            clusterAccess: Type.Union([Type.Literal('idp'), Type.Literal('roles')]),
            values: Type.Record(Type.String(), Type.Unknown()),
            commands: Type.Array(Type.String()),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return connectCluster(ctx, principalOf(request), request.body, request.ip);
    },
  );
  app.get(
    '/api/agent-rbac',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary:
          "Connect page: the RBAC an agent not installed with the chart needs — its own ClusterRole and binding, the hub roles' bindings (owner)",
        tags: ['clusters'],
        response: {
          200: Type.Object({
            clusterAccess: Type.Union([Type.Literal('idp'), Type.Literal('roles')]),
            manifest: Type.String({ description: `YAML of ${agentRbacFile}` }),
            commands: Type.Array(Type.String()),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => agentRbac(clusterIdentity(principalOf(request)), ctx.config.oidcClusterAccess ?? 'roles'),
  );
  app.get(
    '/api/clusters/:id',
    {
      config: access('viewer'),
      schema: {
        summary:
          "A cluster of any of your organizations, its agent's connection, and what reconnects an agent (the offline page)",
        tags: ['clusters'],
        params: ClusterParams,
        querystring: Query({}),
        response: {
          200: Type.Intersect([
            Cluster,
            Type.Object({
              reconnect: Type.Object(
                {
                  values: Type.Record(Type.String(), Type.Unknown(), {
                    description:
                      'the chart values that point the agent at this hub (its token in the secret)',
                  }),
                  check: Type.Array(Type.String(), { description: 'whether the agent runs, and its log' }),
                  pointHere: Type.Array(Type.String(), {
                    description: 'upgrade its release to those values',
                  }),
                  newToken: Type.Array(Type.String(), {
                    description: 'after a token rotation: the new token into its secret, then a restart',
                  }),
                  withoutChart: Type.Array(Type.String(), { description: 'an agent run outside the chart' }),
                },
                { description: 'for an agent installed as the connect page says' },
              ),
            }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      ...(await findCluster(ctx, principalOf(request), request.params.id)),
      reconnect: reconnectSteps(ctx),
    }),
  );
  app.patch(
    '/api/clusters/:id',
    {
      config: access('owner'),
      schema: {
        querystring: Query({}),
        summary: 'Rename a cluster (owner)',
        tags: ['clusters'],
        params: ClusterParams,
        body: ClusterBody,
        response: { 200: Cluster, ...errorResponses },
      },
    },
    async (request) =>
      renameCluster(ctx, principalOf(request), request.params.id, request.body.name, request.ip),
  );
  app.delete(
    '/api/clusters/:id',
    {
      config: access('owner'),
      schema: {
        summary: 'Remove a cluster (owner); its agent token stops working',
        tags: ['clusters'],
        params: ClusterParams,
        querystring: Query({}),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteCluster(ctx, principalOf(request), request.params.id, request.ip);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/clusters/:id/rotate-token',
    {
      config: access('owner'),
      schema: {
        summary: 'Mint a new agent token; the old one is refused at once (owner)',
        tags: ['clusters'],
        params: ClusterParams,
        querystring: Query({}),
        response: { 200: WithToken, ...errorResponses },
      },
    },
    async (request) => rotateClusterToken(ctx, principalOf(request), request.params.id, request.ip),
  );
}
