import { Readable } from 'node:stream';
import { errorResponses, Query, utf8Body } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView, namespacesToList } from '../../http/caller-view.ts';
import { AtParam, requestedMoment, requestedNamespaces } from '../../http/query.ts';
import {
  apiKindFields,
  GroupParam,
  HealthWhySchema,
  KindParam,
  KubeObjectSchema,
} from '../../http/schemas.ts';
import { clusterScoped, scopeOf } from '../../kube/discovery.ts';
import { fieldSelectorPattern } from '../../kube/field-selector.ts';
import { healthWhy } from '../../kube/health.ts';
import { listLimit, listResources } from '../../kube/object-reads.ts';
import { readObject } from '../../scope/object-read.ts';
import { applyAt, applyDocuments } from './apply.ts';
import { apiResources, namespaces, resourceCounts } from './catalog.ts';
import type { ResourcesContext } from './module.ts';
import { searchRoutes } from './search-routes.ts';
import { deleteResource, listChunks } from './service.ts';

const tags = ['resources'];
const yamlTypes = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain', 'application/json'];
const applyBodyLimit = 5 * 1024 * 1024;

const Namespace = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: '^(_|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$',
  description: `namespace, or \`${clusterScoped}\` for a cluster-scoped object`,
});
const Name = Type.String({ minLength: 1, maxLength: 253, pattern: '^[^/]+$' });
const Yaml = Type.Union([Type.String({ minLength: 1 }), Type.Object({}, { additionalProperties: true })], {
  description: 'YAML (one or more documents separated by ---) or JSON',
});
const ObjectParams = Type.Object({ kind: KindParam, namespace: Namespace, name: Name });

const ListResult = Type.Object({
  kind: Type.String(),
  group: Type.String(),
  apiVersion: Type.String(),
  namespaced: Type.Boolean(),
  source: Type.Enum(['cache', 'live', 'history']),
  total: Type.Optional(Type.Integer()),
  items: Type.Array(KubeObjectSchema),
  continue: Type.Optional(Type.String()),
});
const ApplyResult = Type.Object({
  index: Type.Integer(),
  apiVersion: Type.String(),
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  action: Type.Enum(['created', 'configured', 'unchanged']),
  dryRun: Type.Boolean(),
});

const text = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

export function resourceRoutes(app: App, ctx: ResourcesContext): void {
  searchRoutes(app, ctx);
  app.addContentTypeParser(
    ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain'],
    { parseAs: 'buffer', bodyLimit: applyBodyLimit },
    (_req, body, done) => {
      try {
        done(null, utf8Body(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );

  app.get(
    '/api/resources/:kind',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'List objects of a kind (from the cache; kinds the agent does not cache are listed live)',
        params: Type.Object({ kind: KindParam }),
        querystring: Query({
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
          group: Type.Optional(GroupParam),
          labelSelector: Type.Optional(Type.String({ maxLength: 1024 })),
          fieldSelector: Type.Optional(
            Type.String({
              maxLength: 268,
              pattern: fieldSelectorPattern,
              description:
                'pods only: `spec.nodeName=<node>`, the pods bound to a node (empty: not bound yet)',
            }),
          ),
          summary: Type.Optional(
            Type.Boolean({
              description: 'fewer fields per object; ConfigMaps and Secrets carry dataKeys instead of data',
            }),
          ),
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: listLimit.max, default: listLimit.default }),
          ),
          continue: Type.Optional(Type.String({ maxLength: 4096 })),
          at: Type.Optional(AtParam),
        }),
        response: { 200: ListResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const resource = ctx.cluster.resolve(request.params.kind, q.group);
      const at = requestedMoment(q.at, 'at');
      const history = ctx.history;
      const result = await listResources(
        ctx.cluster,
        {
          kind: request.params.kind,
          group: q.group,
          namespaces: await namespacesToList(ctx, request.caller, resource, requestedNamespaces(q)),
          labelSelector: q.labelSelector,
          fieldSelector: q.fieldSelector,
          limit: q.limit,
          continue: q.continue,
          summary: q.summary,
        },
        at === undefined ? undefined : (kind, namespaces) => history.listAt(kind, at, namespaces),
      );
      return reply.type('application/json; charset=utf-8').send(Readable.from(listChunks(result, q.summary)));
    },
  );

  app.get(
    '/api/resources/:kind/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `One object; cluster-scoped objects use \`${clusterScoped}\` as namespace`,
        params: ObjectParams,
        querystring: Query({ group: Type.Optional(GroupParam), at: Type.Optional(AtParam) }),
        response: {
          200: Type.Object({ resource: KubeObjectSchema, health: HealthWhySchema }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const resource = await readObject(ctx, request.caller, {
        ...request.params,
        group: request.query.group,
        at: requestedMoment(request.query.at, 'at'),
      });
      // The object page shows it at the top (ADR 0126): the rules live on the agent, the page only shows them.
      return { resource, health: healthWhy(resource) };
    },
  );

  app.put(
    '/api/resources/:kind/:namespace/:name',
    {
      config: callerAware,
      bodyLimit: applyBodyLimit,
      schema: {
        tags,
        summary: 'Create or update the object with server-side apply (force by default)',
        consumes: yamlTypes,
        params: ObjectParams,
        querystring: Query({
          group: Type.Optional(GroupParam),
          force: Type.Optional(
            Type.Boolean({ default: true, description: 'take over fields other managers own' }),
          ),
          dryRun: Type.Optional(Type.Boolean()),
        }),
        body: Yaml,
        response: {
          200: Type.Object({ resource: KubeObjectSchema, result: ApplyResult }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { kind, namespace, name } = request.params;
      const resource = ctx.cluster.resolve(kind, request.query.group);
      const { result, object } = await applyAt(
        ctx,
        { resource, namespace: scopeOf(resource, namespace), name },
        text(request.body),
        {
          force: request.query.force,
          dryRun: request.query.dryRun,
          as: request.caller,
        },
      );
      return { resource: object, result };
    },
  );

  app.delete(
    '/api/resources/:kind/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Delete the object',
        params: ObjectParams,
        querystring: Query({
          group: Type.Optional(GroupParam),
          propagationPolicy: Type.Optional(Type.Enum(['Background', 'Foreground', 'Orphan'])),
          gracePeriodSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
          dryRun: Type.Optional(Type.Boolean()),
        }),
        response: {
          200: Type.Object({
            kind: Type.String(),
            namespace: Type.Optional(Type.String()),
            name: Type.String(),
            status: Type.Enum(['deleted', 'deleting']),
            dryRun: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const { kind, namespace, name } = request.params;
      const { group, ...options } = request.query;
      return deleteResource(ctx, kind, namespace, name, group, { ...options, as: request.caller });
    },
  );

  app.post(
    '/api/resources/apply',
    {
      config: callerAware,
      bodyLimit: applyBodyLimit,
      schema: {
        tags,
        summary:
          'Apply multi-document YAML with server-side apply; all documents are dry-run first, so a bad one applies nothing',
        consumes: yamlTypes,
        querystring: Query({
          dryRun: Type.Optional(Type.Boolean()),
          force: Type.Optional(Type.Boolean({ default: true })),
          namespace: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 63,
              description: 'for namespaced documents that name none (default "default")',
            }),
          ),
        }),
        body: Yaml,
        response: { 200: Type.Object({ results: Type.Array(ApplyResult) }), ...errorResponses },
      },
    },
    async (request) => ({
      results: await applyDocuments(ctx, text(request.body), { ...request.query, as: request.caller }),
    }),
  );

  app.get(
    '/api/namespaces',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Namespaces',
        querystring: Query({}),
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                name: Type.String(),
                status: Type.String(),
                labels: Type.Record(Type.String(), Type.String()),
                createdAt: Type.Optional(Type.String()),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ items: namespaces(ctx, await callerView(ctx, request.caller)) }),
  );

  app.get(
    '/api/api-resources',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Every kind the cluster serves, and whether the agent caches it',
        querystring: Query({}),
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                ...apiKindFields,
                singular: Type.String(),
                verbs: Type.Array(Type.String()),
                shortNames: Type.Array(Type.String()),
                categories: Type.Array(Type.String()),
                cached: Type.Boolean(),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    () => ({ items: apiResources(ctx) }),
  );

  app.get(
    '/api/resource-counts',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Object counts per cached kind, now or as they were at a past moment (`at`, time travel)',
        querystring: Query({
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          at: Type.Optional(AtParam),
        }),
        response: {
          200: Type.Object({
            counts: Type.Array(
              Type.Object({
                kind: Type.String(),
                group: Type.String(),
                name: Type.String(),
                namespaced: Type.Boolean(),
                count: Type.Integer(),
              }),
            ),
            loading: Type.Array(Type.String()),
            notKept: Type.Optional(
              Type.Array(Type.String(), {
                description: 'with `at`: kinds whose kept past cannot say (Events, a kind synced since)',
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const at = requestedMoment(request.query.at, 'at');
      const view = await callerView(ctx, request.caller, requestedNamespaces(request.query));
      return resourceCounts(ctx, view, at);
    },
  );
}
