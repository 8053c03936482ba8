import { AppError, errorResponses, Query } from '@binnacle/common/server';
import { type Static, Type } from 'typebox';
import type { App } from '../../context.ts';
import { agentOnly, callerAware } from '../../http/caller.ts';
import { NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { mergeKubeconfigEntry } from '../../kube/kubeconfig-merge.ts';
import { capiEntry, capiKubeconfig, capiSecretName } from './capi.ts';
import type { ContextsContext } from './module.ts';

const tags = ['contexts'];

const Connection = Type.Object({
  state: Type.Enum(['connected', 'connecting', 'disconnected']),
  context: Type.String(),
  clusterName: Type.String(),
  server: Type.String(),
  inCluster: Type.Boolean(),
  error: Type.Optional(Type.String()),
  errorType: Type.Optional(
    Type.Enum(['unreachable', 'tls', 'unauthorized', 'forbidden', 'timeout', 'error']),
  ),
  code: Type.Optional(Type.String()),
  sync: Type.Object({ ready: Type.Boolean(), synced: Type.Integer(), kinds: Type.Integer() }),
  progressMessage: Type.String(),
});

const Contexts = Type.Object({
  current: Type.String(),
  inCluster: Type.Boolean(),
  items: Type.Array(
    Type.Object({
      name: Type.String(),
      cluster: Type.String(),
      server: Type.Optional(Type.String()),
      namespace: Type.Optional(Type.String()),
      current: Type.Boolean(),
    }),
  ),
});

const ContextName = Type.Object({ name: Type.String({ minLength: 1, maxLength: 253 }) });
const CapiCluster = Type.Object({ namespace: NamespaceParam, name: ObjectNameParam });

/** The context name a connected Cluster API cluster gets in the agent's kubeconfig. */
const capiContextName = ({ namespace, name }: Static<typeof CapiCluster>) => `capi-${namespace}-${name}`;

/** The kubeconfig contexts, switching between them, the connection's state, and Cluster API clusters. */
export function contextRoutes(app: App, ctx: ContextsContext): void {
  app.get(
    '/api/contexts',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "The kubeconfig's contexts (in-cluster: the one context) and which one is served",
        querystring: Query({}),
        response: { 200: Contexts, ...errorResponses },
      },
    },
    () => ({
      current: ctx.cluster.target.contextName,
      inCluster: ctx.connection.inCluster,
      items: ctx.connection.contexts(),
    }),
  );

  app.post(
    '/api/contexts/:name',
    {
      config: agentOnly,
      schema: {
        tags,
        summary:
          'Serve another context: every stream, session and port-forward ends with the reason, the cache and timeline start afresh',
        params: ContextName,
        querystring: Query({}),
        response: { 200: Connection, ...errorResponses },
      },
    },
    (request) => ctx.connection.switchTo(request.params.name),
  );

  app.get(
    '/api/connection',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'The connection to the cluster: state, context, the kind of error, the progress of the sync',
        querystring: Query({}),
        response: { 200: Connection, ...errorResponses },
      },
    },
    () => ctx.connection.status(),
  );

  app.post(
    '/api/connection/retry',
    {
      config: agentOnly,
      schema: {
        tags,
        summary: 'Connect to the current context afresh (as a switch to it: sessions end, the cache reloads)',
        querystring: Query({}),
        response: { 200: Connection, ...errorResponses },
      },
    },
    () => ctx.connection.retry(),
  );

  app.get(
    '/api/capi/clusters/:namespace/:name/kubeconfig',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "A Cluster API cluster's kubeconfig, from its <name>-kubeconfig Secret, read as the caller",
        params: CapiCluster,
        querystring: Query({}),
        response: {
          200: {
            description: 'The kubeconfig, as an attachment',
            content: { 'application/x-yaml': { schema: Type.String() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { namespace, name } = request.params;
      const kubeconfig = await capiKubeconfig(ctx, namespace, name, request.caller);
      return reply
        .type('application/x-yaml; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}.kubeconfig"`)
        .serializer(String)
        .send(kubeconfig);
    },
  );

  app.post(
    '/api/capi/clusters/:namespace/:name/connect',
    {
      config: agentOnly,
      schema: {
        tags,
        summary: `Add a Cluster API cluster to the agent's kubeconfig (context capi-<namespace>-<name>) and switch to it`,
        params: CapiCluster,
        querystring: Query({}),
        response: {
          200: Type.Object({
            status: Type.Literal('connected'),
            context: Type.String(),
            connection: Connection,
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      const [file] = ctx.connection.kubeconfigFiles;
      if (ctx.connection.inCluster || !file) {
        throw new AppError(
          'invalid_request',
          'the agent runs inside the cluster with its service account: it has no kubeconfig file to add a cluster to',
        );
      }
      const context = capiContextName(request.params);
      const kubeconfig = await capiKubeconfig(ctx, namespace, name, request.caller);
      const entry = capiEntry(kubeconfig, context, `Secret ${namespace}/${capiSecretName(name)}`);
      // New entries go to the first kubeconfig file, as kubectl puts them.
      await mergeKubeconfigEntry(file, entry);
      ctx.log.info({ context, file }, 'added a Cluster API cluster to the kubeconfig');
      return { status: 'connected' as const, context, connection: await ctx.connection.switchTo(context) };
    },
  );
}
