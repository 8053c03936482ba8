import { Nullable } from '@binnacle/common/server';
import { type Static, Type } from 'typebox';
import type { HubContext } from '../../context.ts';
import { iso } from '../../security/clock.ts';

type Deps = Pick<HubContext, 'clock' | 'database'>;

export const Preferences = Type.Object(
  {
    theme: Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]),
    timeZone: Type.Union([Type.Literal('local'), Type.Literal('utc')]),
    defaultClusterId: Nullable(Type.String({ maxLength: 64 })),
    defaultNamespace: Nullable(
      Type.String({
        maxLength: 63,
        pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
        description: 'a namespace name',
      }),
    ),
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

export async function readPreferences(ctx: Deps, userId: string): Promise<Preferences> {
  const row = await ctx.database.db
    .selectFrom('preferences')
    .select('data')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { ...defaults, ...(row ? (JSON.parse(row.data) as Partial<Preferences>) : {}) };
}

/** Merges the fields given into the stored preferences; the others keep their value. */
export async function updatePreferences(
  ctx: Deps,
  userId: string,
  change: Partial<Preferences>,
): Promise<Preferences> {
  const next = { ...(await readPreferences(ctx, userId)), ...change };
  const data = JSON.stringify(next);
  const updatedAt = iso(ctx.clock.now());
  await ctx.database.db
    .insertInto('preferences')
    .values({ user_id: userId, data, updated_at: updatedAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: updatedAt }))
    .execute();
  return next;
}
