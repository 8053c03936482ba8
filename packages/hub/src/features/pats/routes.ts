import { Duration, errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import { listPats, mintPat, revokePat } from './service.ts';

type Deps = Pick<HubContext, 'audit' | 'clock' | 'database'>;

const Pat = Type.Object({
  id: Type.String(),
  name: Type.String(),
  hint: Type.String({ description: 'the last 4 characters of the token' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'updated at most every 10 minutes',
  }),
});

export function patRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/pats',
    {
      config: access('viewer'),
      schema: {
        summary: 'Your personal access tokens in the current organization (never the tokens themselves)',
        tags: ['pats'],
        querystring: Query({}),
        response: { 200: Type.Object({ items: Type.Array(Pat) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await listPats(ctx, principalOf(request)) }),
  );
  app.post(
    '/api/pats',
    {
      config: access('member', { session: true }),
      schema: {
        querystring: Query({}),
        summary: 'Mint a personal access token for yourself, pinned to the current organization; shown once',
        tags: ['pats'],
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
            expiresIn: Type.Optional(
              Duration({
                description: 'lifetime in hours form, e.g. 720h; at most 8760h; none when left out',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Intersect([
            Pat,
            Type.Object({
              token: Type.String({ description: 'bnp_…; store it now, it is never shown again' }),
            }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return mintPat(ctx, principalOf(request), request.body, request.ip);
    },
  );
  app.delete(
    '/api/pats/:id',
    {
      config: access('viewer'),
      schema: {
        summary: 'Delete one of your tokens; it stops working at once',
        tags: ['pats'],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Query({}),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revokePat(ctx, principalOf(request), request.params.id, request.ip);
      return reply.code(204).send(null);
    },
  );
}
