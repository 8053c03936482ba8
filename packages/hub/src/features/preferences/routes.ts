import { errorResponses, Query } from '@binnacle/common/server';
import { type Static, Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import { iso } from '../../security/clock.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const Preferences = Type.Object(
  {
    theme: Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]),
    timeZone: Type.Union([Type.Literal('local'), Type.Literal('utc')]),
    defaultClusterId: Nullable(Type.String({ maxLength: 64 })),
    defaultNamespace: Nullable(Type.String({ maxLength: 63 })),
  },
  { additionalProperties: false },
);
type Preferences = Static<typeof Preferences>;
const defaults: Preferences = {
  theme: 'system',
  timeZone: 'local',
  defaultClusterId: null,
  defaultNamespace: null,
};

async function read(ctx: HubContext, userId: string): Promise<Preferences> {
  const row = await ctx.database.db
    .selectFrom('preferences')
    .select('data')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { ...defaults, ...(row ? (JSON.parse(row.data) as Partial<Preferences>) : {}) };
}

/** Personal UI preferences; they change nothing in the organization, so every role may set its own. */
export function preferenceRoutes(app: HubApp, ctx: HubContext): void {
  app.get(
    '/api/preferences',
    {
      config: access('viewer'),
      schema: {
        summary: 'Your UI preferences',
        tags: ['account'],
        querystring: Query({}),
        response: { 200: Preferences, ...errorResponses },
      },
    },
    async (request) => read(ctx, principalOf(request).user.id),
  );
  app.patch(
    '/api/preferences',
    {
      config: access('viewer'),
      schema: {
        querystring: Query({}),
        summary: 'Change some of your UI preferences (fields left out keep their value)',
        tags: ['account'],
        body: Type.Partial(Preferences),
        response: { 200: Preferences, ...errorResponses },
      },
    },
    async (request) => {
      const userId = principalOf(request).user.id;
      const next = { ...(await read(ctx, userId)), ...request.body };
      const data = JSON.stringify(next);
      const updatedAt = iso(ctx.clock.now());
      await ctx.database.db
        .insertInto('preferences')
        .values({ user_id: userId, data, updated_at: updatedAt })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: updatedAt }))
        .execute();
      return next;
    },
  );
}
