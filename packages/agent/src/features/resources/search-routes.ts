import { searchLimits } from '@binnacle/common';
import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { AtParam, requestedMoment } from '../../http/query.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import type { ResourcesContext } from './module.ts';
import { searchObjects } from './search.ts';

const SearchResult = Type.Object({
  total: Type.Integer({ description: 'hits the caller may see, before limit' }),
  hits: Type.Array(
    Type.Object({
      kind: Type.String(),
      group: Type.String(),
      namespace: Type.Optional(Type.String()),
      name: Type.String(),
      summary: Type.String({ description: 'one redacted line: `Kind namespace/name: state`' }),
    }),
    { description: 'best name matches first' },
  ),
  loading: Type.Array(Type.String(), { description: 'kinds still loading (plural.group): not searched yet' }),
  notKept: Type.Optional(
    Type.Array(Type.String(), {
      description: 'with `at`: kinds whose kept past cannot say (a kind synced since): not searched',
    }),
  ),
});

/** The search the MCP `search` tool runs, over HTTP: the hub's fleet search asks every cluster here. */
export function searchRoutes(app: App, ctx: ResourcesContext): void {
  app.get(
    '/api/search',
    {
      config: callerAware,
      schema: {
        tags: ['resources'],
        summary:
          'Free-text search over the cached objects the caller may list: every word of q in the name, namespace, kind, a label (key=value) or an annotation value; with `at`, over the objects as they were then (time travel)',
        querystring: Query({
          q: Type.String({
            minLength: 1,
            maxLength: searchLimits.maxQueryChars,
            description: 'words to look for',
          }),
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: searchLimits.maxLimit, default: searchLimits.defaultLimit }),
          ),
          namespace: Type.Optional(NamespaceParam),
          kind: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'only this kind' })),
          group: Type.Optional(Type.String({ maxLength: 253, description: 'the API group of kind' })),
          at: Type.Optional(AtParam),
        }),
        response: { 200: SearchResult, ...errorResponses },
      },
    },
    async (request) => {
      const { q, at, ...rest } = request.query;
      const moment = requestedMoment(at, 'at');
      return searchObjects(ctx, request.caller, {
        query: q,
        ...rest,
        ...(moment === undefined ? {} : { at: moment }),
      });
    },
  );
}
