import { randomUUID } from 'node:crypto';
import type { Generated } from 'kysely';
import type { Migration } from 'kysely/migration';

interface EventsTable {
  seq: Generated<number>;
  key: string;
  ts: number;
  source: string;
  event_type: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string | null;
  owner_uid: string | null;
  has_owner: number;
  body: string;
}
interface MetaTable {
  key: string;
  value: string;
}
export interface Schema {
  timeline_events: EventsTable;
  timeline_meta: MetaTable;
}

/** Forward-only migrations; the database records which ran. */
export const migrations: Record<string, Migration> = {
  '0001_timeline': {
    async up(db) {
      await db.schema
        .createTable('timeline_events')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('ts', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('namespace', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('uid', 'text')
        .addColumn('owner_uid', 'text')
        .addColumn('has_owner', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('timeline_events_ts').on('timeline_events').column('ts').execute();
      await db.schema
        .createIndex('timeline_events_object')
        .on('timeline_events')
        .columns(['kind', 'namespace', 'name'])
        .execute();
      await db.schema
        .createIndex('timeline_events_namespace')
        .on('timeline_events')
        .column('namespace')
        .execute();
      await db.schema.createIndex('timeline_events_uid').on('timeline_events').column('uid').execute();
      await db.schema
        .createIndex('timeline_events_owner')
        .on('timeline_events')
        .column('owner_uid')
        .execute();
      await db.schema
        .createTable('timeline_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.insertInto('timeline_meta').values({ key: 'epoch', value: randomUUID() }).execute();
    },
  },
};
