import type { SelectQueryBuilder } from 'kysely';
import type { HubSchema } from './schema.ts';

/**
 * `count(*)` of a filtered query as a number. PostgreSQL answers count as bigint text and SQLite as a number,
 * so every count goes through here.
 */
export async function countOf<TB extends keyof HubSchema>(
  query: SelectQueryBuilder<HubSchema, TB, object>,
): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
