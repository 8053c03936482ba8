import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type {
  NewTimelineEvent,
  TimelineEvent,
  TimelineQuery,
  TimelineStats,
  TimelineStore,
} from '../types.ts';

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
interface Schema {
  timeline_events: EventsTable;
  timeline_meta: MetaTable;
}

/** Forward-only migrations; the database records which ran. */
const migrations: Record<string, Migration> = {
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

export interface SqliteStoreOptions {
  path: string;
  /** Events older than this are deleted (ms). */
  retentionMs: number;
  /** The database file is kept below this size (bytes) by deleting the oldest events. */
  maxBytes: number;
  now?: () => number;
  /** Where a scheduled prune that failed is reported (each failure is also counted in `stats()`). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

const pruneEveryMs = 5 * 60_000;

/**
 * The timeline in a SQLite file (`--timeline-storage sqlite`): it survives restarts, keeps `retention` worth of
 * changes and stays below `max size`. The epoch is stored in the file, so cursors stay valid across restarts.
 */
export class SqliteTimelineStore implements TimelineStore {
  readonly kind = 'sqlite' as const;
  readonly #db: Kysely<Schema>;
  readonly #sqlite: Database.Database;
  readonly #options: SqliteStoreOptions;
  readonly #timer: ReturnType<typeof setInterval>;
  #epoch = '';
  #pruneFailures = 0;

  private constructor(sqlite: Database.Database, options: SqliteStoreOptions) {
    this.#sqlite = sqlite;
    this.#options = options;
    this.#db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
    this.#timer = setInterval(() => void this.#scheduledPrune(), pruneEveryMs);
    this.#timer.unref();
  }

  static async open(options: SqliteStoreOptions): Promise<SqliteTimelineStore> {
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    const sqlite = new Database(options.path);
    // auto_vacuum must be set before the first table exists; on an existing file it is a no-op.
    sqlite.pragma('auto_vacuum = INCREMENTAL');
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 10000');
    // Backtracking RegExp: only `defaultExcludedNames` reach it (TimelineQuery.excludeNames, ADR 0045).
    sqlite.function('regexp', { deterministic: true }, (pattern: unknown, value: unknown) =>
      new RegExp(String(pattern)).test(String(value)) ? 1 : 0,
    );
    const store = new SqliteTimelineStore(sqlite, options);
    const { error } = await new Migrator({
      db: store.#db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    }).migrateToLatest();
    if (error) {
      await store.close();
      throw new Error(`timeline database ${options.path} could not be migrated: ${(error as Error).message}`);
    }
    store.#epoch = (
      await store.#db
        .selectFrom('timeline_meta')
        .select('value')
        .where('key', '=', 'epoch')
        .executeTakeFirstOrThrow()
    ).value;
    await store.prune();
    return store;
  }

  async append(events: NewTimelineEvent[]): Promise<TimelineEvent[]> {
    if (events.length === 0) return [];
    return this.#db.transaction().execute(async (tx) => {
      // Known keys are skipped before inserting, so a duplicate never consumes a sequence number.
      const known = new Set(
        (
          await tx
            .selectFrom('timeline_events')
            .select('key')
            .where(
              'key',
              'in',
              events.map((e) => e.key),
            )
            .execute()
        ).map((r) => r.key),
      );
      const kept: TimelineEvent[] = [];
      for (const { key, ...fields } of events) {
        if (known.has(key)) continue;
        known.add(key);
        const row = await tx
          .insertInto('timeline_events')
          .values({
            key,
            ts: Date.parse(fields.timestamp),
            source: fields.source,
            event_type: fields.eventType,
            kind: fields.kind,
            namespace: fields.namespace ?? '',
            name: fields.name,
            uid: fields.uid ?? null,
            owner_uid: fields.owner?.uid ?? null,
            has_owner: fields.owner ? 1 : 0,
            body: JSON.stringify(fields),
          })
          .returning('seq')
          .executeTakeFirstOrThrow();
        kept.push({ seq: row.seq, ...fields });
      }
      return kept;
    });
  }

  async query(query: TimelineQuery): Promise<TimelineEvent[]> {
    let q = this.#db.selectFrom('timeline_events').select(['seq', 'body']);
    if (query.sinceSeq !== undefined) q = q.where('seq', '>', query.sinceSeq);
    if (query.since) q = q.where('ts', '>=', Date.parse(query.since));
    if (query.namespaces) {
      if (query.namespaces.length === 0) return [];
      q = q.where('namespace', 'in', query.namespaces);
    }
    if (query.kinds?.length)
      q = q.where(
        sql<string>`lower(kind)`,
        'in',
        query.kinds.map((k) => k.toLowerCase()),
      );
    if (query.name !== undefined) q = q.where('name', '=', query.name);
    const uids = query.uids?.length ? query.uids : undefined;
    const owners = query.ownerUids?.length ? query.ownerUids : undefined;
    if (uids || owners) {
      q = q.where((eb) =>
        eb.or([...(uids ? [eb('uid', 'in', uids)] : []), ...(owners ? [eb('owner_uid', 'in', owners)] : [])]),
      );
    }
    if (query.eventTypes?.length) q = q.where('event_type', 'in', query.eventTypes);
    if (query.sources?.length) q = q.where('source', 'in', query.sources);
    if (query.excludeKinds?.length)
      q = q.where(
        sql<string>`lower(kind)`,
        'not in',
        query.excludeKinds.map((k) => k.toLowerCase()),
      );
    for (const pattern of query.excludeNames ?? []) q = q.where(sql<boolean>`not (name regexp ${pattern})`);
    if (query.topLevelOnly) q = q.where('has_owner', '=', 0);
    const rows = await q
      .orderBy('seq', query.order === 'asc' ? 'asc' : 'desc')
      .limit(query.limit)
      .execute();
    return rows.map((row) => ({ seq: row.seq, ...(JSON.parse(row.body) as Omit<TimelineEvent, 'seq'>) }));
  }

  async stats(): Promise<TimelineStats> {
    const row = await this.#db
      .selectFrom('timeline_events')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.min<number>('seq').as('oldest'),
        eb.fn.max<number>('seq').as('latest'),
      ])
      .executeTakeFirstOrThrow();
    const sequence = this.#sqlite
      .prepare("select seq from sqlite_sequence where name = 'timeline_events'")
      .get() as { seq: number } | undefined;
    return {
      epoch: this.#epoch,
      count: Number(row.count),
      oldestSeq: row.oldest ?? 0,
      latestSeq: sequence?.seq ?? row.latest ?? 0,
      pruneFailures: this.#pruneFailures,
    };
  }

  /** A failed prune lets the file outgrow its cap and keep events past the retention: never a silent one. */
  async #scheduledPrune(): Promise<void> {
    try {
      await this.prune();
    } catch (error) {
      this.#pruneFailures += 1;
      this.#options.log?.('timeline prune failed; the database may outgrow its retention and size cap', {
        err: error,
        path: this.#options.path,
        pruneFailures: this.#pruneFailures,
      });
    }
  }

  /** Deletes events past the retention, then the oldest until the file is below the size cap. */
  async prune(): Promise<{ deleted: number }> {
    const now = this.#options.now?.() ?? Date.now();
    let deleted = Number(
      (
        await this.#db
          .deleteFrom('timeline_events')
          .where('ts', '<', now - this.#options.retentionMs)
          .executeTakeFirst()
      ).numDeletedRows,
    );
    for (let size = this.sizeBytes(); size > this.#options.maxBytes; size = this.sizeBytes()) {
      const { count } = await this.#db
        .selectFrom('timeline_events')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) === 0) break;
      // Cut the share of rows the file is over (aiming 10% below the cap), at least a tenth per round.
      const share = Math.min(1, Math.max(0.1, 1 - (this.#options.maxBytes * 0.9) / size));
      const cut = Math.max(1, Math.ceil(Number(count) * share));
      const result = await this.#db
        .deleteFrom('timeline_events')
        .where('seq', 'in', (eb) =>
          eb.selectFrom('timeline_events').select('seq').orderBy('seq', 'asc').limit(cut),
        )
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      this.#sqlite.pragma('wal_checkpoint(TRUNCATE)');
      this.#sqlite.pragma('incremental_vacuum');
    }
    if (deleted > 0) this.#sqlite.pragma('incremental_vacuum');
    return { deleted };
  }

  /** Bytes the database occupies (pages in use, excluding the free list). */
  sizeBytes(): number {
    const pages = Number(this.#sqlite.pragma('page_count', { simple: true }));
    const free = Number(this.#sqlite.pragma('freelist_count', { simple: true }));
    return (pages - free) * Number(this.#sqlite.pragma('page_size', { simple: true }));
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#db.destroy();
  }
}
