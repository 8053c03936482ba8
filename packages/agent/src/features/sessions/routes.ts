import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import type { SessionsContext } from './module.ts';

const kinds = ['events', 'logs', 'exec', 'terminal', 'portforward', 'download', 'helm'];

export function sessionRoutes(app: App, ctx: SessionsContext): void {
  app.get(
    '/api/sessions',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Open streams: event and log streams, exec and terminal sessions, port-forwards, downloads',
        querystring: Query({}),
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                id: Type.String(),
                kind: Type.Enum(kinds),
                target: Type.String(),
                startedAt: Type.String(),
              }),
            ),
            counts: Type.Object(Object.fromEntries(kinds.map((k) => [k, Type.Integer()]))),
            total: Type.Integer(),
          }),
          ...errorResponses,
        },
      },
    },
    () => {
      const items = ctx.sessions.list();
      return { items, counts: ctx.sessions.counts(), total: items.length };
    },
  );
}
