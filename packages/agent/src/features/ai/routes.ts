import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { HealthWhySchema, KubeObjectSchema } from '../../http/schemas.ts';
import { clusterScoped } from '../../kube/discovery.ts';
import type { AiContext } from './module.ts';
import { aiGet, aiLimits, aiList } from './service.ts';

const tags = ['ai'];
const VerbosityParam = (fallback: string) =>
  Type.Optional(
    Type.Union([Type.Literal('compact'), Type.Literal('summary'), Type.Literal('detail')], {
      default: fallback,
      description:
        'compact: one line per object; summary: the fields a table shows; detail: the whole object',
    }),
  );
const Kind = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$' });
const Group = Type.Optional(
  Type.String({ maxLength: 253, description: 'API group when a kind name is ambiguous' }),
);
const Shown = Type.Union([Type.String(), KubeObjectSchema]);

/**
 * Resource views sized for a language model's context: redacted (Secret values never, credentials in env,
 * arguments, ConfigMaps and annotations scrubbed), at a verbosity, capped in count and size.
 */
export function aiRoutes(app: App, ctx: AiContext): void {
  app.get(
    '/api/ai/resources/:kind',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "A kind's objects for an AI assistant: redacted, at a verbosity, at most 200 and 200 000 characters",
        params: Type.Object({ kind: Kind }),
        querystring: Query({
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
          group: Group,
          labelSelector: Type.Optional(Type.String({ maxLength: 1024 })),
          verbosity: VerbosityParam('summary'),
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: aiLimits.maxItems, default: aiLimits.defaultItems }),
          ),
        }),
        response: {
          200: Type.Object({
            kind: Type.String(),
            group: Type.String(),
            namespaced: Type.Boolean(),
            verbosity: Type.String(),
            total: Type.Integer(),
            items: Type.Array(Shown),
            truncated: Type.Optional(Type.String()),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      return aiList(ctx, request.caller, {
        kind: request.params.kind,
        group: q.group,
        namespaces: requestedNamespaces(q),
        labelSelector: q.labelSelector,
        verbosity: q.verbosity ?? 'summary',
        limit: q.limit,
      });
    },
  );

  app.get(
    '/api/ai/resources/:kind/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `One object for an AI assistant, redacted (\`${clusterScoped}\` as namespace for a cluster-scoped one)`,
        params: Type.Object({
          kind: Kind,
          namespace: Type.String({
            minLength: 1,
            maxLength: 63,
            pattern: '^(_|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$',
          }),
          name: Type.String({ minLength: 1, maxLength: 253, pattern: '^[^/]+$' }),
        }),
        querystring: Query({ group: Group, verbosity: VerbosityParam('detail') }),
        response: {
          200: Type.Object({ verbosity: Type.String(), resource: Shown, health: HealthWhySchema }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      aiGet(ctx, request.caller, {
        ...request.params,
        group: request.query.group,
        verbosity: request.query.verbosity ?? 'detail',
      }),
  );
}
