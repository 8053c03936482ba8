import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type Insertable, Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type {
  NumberedTimelineEvent,
  TimelineEvent,
  TimelineQuery,
  TimelineStats,
  TimelineStore,
} from '../types.ts';
import { migrations, type Schema } from './sqlite-schema.ts';

export interface SqliteStoreOptions {
  path: string;
  /** Events older than this are deleted (ms). */
  retentionMs: number;
  /** The database, its WAL and its shared-memory file are kept below this size together (bytes). */
  maxBytes: number;
  now?: () => number;
  /** Where a prune that failed is reported (each failure is also counted in `stats()`). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

const pruneEveryMs = 5 * 60_000;

/**
 * How the size cap holds (ADR 0051), in shares of the cap, which counts the database and its WAL and shm files.
 * When the pages the database uses and those two files pass `highWater`, the oldest events go until they are at
 * `lowWater`. One transaction carries at most `chunk` of event bodies (and 4 MiB), and the WAL is checkpointed
 * once it holds `wal` of the cap (and 1000 pages at most) and cut back to that on disk, so neither a big batch
 * nor the WAL carries the files far past the mark between two checks.
 */
export const sizeCap = { highWater: 0.85, lowWater: 0.65, chunk: 1 / 16, wal: 1 / 16 };
/** Rows one DELETE removes at most: a statement holds the agent's only thread while it runs. */
const deleteRows = 10_000;
/** Rows one INSERT carries: 12 columns each, well inside SQLite's 32 766 bound parameters. */
const insertRows = 500;

const fileBytes = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** An event as stored, beside the event it answers. */
interface Pending {
  row: Insertable<Schema['timeline_events']> & { seq: number };
  fields: Omit<TimelineEvent, 'seq'>;
}

const pendingOf = ({ key, seq, ...fields }: NumberedTimelineEvent): Pending => ({
  row: {
    seq,
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
  },
  fields,
});

/**
 * The timeline in a SQLite file (`--timeline-storage sqlite`): it survives restarts, keeps `retention` worth of
 * changes and stays below `max size` at all times (the oldest go first, on the write that needs the room). The
 * epoch is stored in the file, so cursors stay valid across restarts.
 */
export class SqliteTimelineStore implements TimelineStore {
  readonly kind = 'sqlite' as const;
  readonly #db: Kysely<Schema>;
  readonly #sqlite: Database.Database;
  readonly #options: SqliteStoreOptions;
  readonly #timer: ReturnType<typeof setInterval>;
  /** Body bytes one write transaction carries at most. */
  readonly #chunkBytes: number;
  #epoch = '';
  #pruneFailures = 0;

  private constructor(sqlite: Database.Database, options: SqliteStoreOptions) {
    this.#sqlite = sqlite;
    this.#options = options;
    this.#chunkBytes = Math.min(options.maxBytes * sizeCap.chunk, 4 * 1024 * 1024);
    this.#db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
    this.#timer = setInterval(() => void this.#guarded(() => this.prune()), pruneEveryMs);
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
    // The WAL counts against the cap: checkpointed (by the default 1000 pages at most) once it holds its share,
    // and cut back to that share on disk afterwards.
    const pageSize = Number(sqlite.pragma('page_size', { simple: true }));
    const walPages = Math.max(8, Math.min(1000, Math.floor((options.maxBytes * sizeCap.wal) / pageSize)));
    sqlite.pragma(`wal_autocheckpoint = ${walPages}`);
    sqlite.pragma(`journal_size_limit = ${walPages * pageSize}`);
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

  /**
   * Stores the events whose keys are new, in transactions of at most `chunk` of the cap each; after each, the
   * oldest events make room when the files passed the high-water mark.
   */
  async append(events: NumberedTimelineEvent[]): Promise<TimelineEvent[]> {
    const kept: TimelineEvent[] = [];
    for (const chunk of this.#chunks(events.map(pendingOf))) {
      kept.push(...(await this.#insert(chunk)));
      await this.#guarded(() => this.#makeRoom());
    }
    return kept;
  }

  *#chunks(pending: Pending[]): Generator<Pending[]> {
    let chunk: Pending[] = [];
    let bytes = 0;
    for (const next of pending) {
      if (chunk.length > 0 && bytes + next.row.body.length > this.#chunkBytes) {
        yield chunk;
        chunk = [];
        bytes = 0;
      }
      chunk.push(next);
      bytes += next.row.body.length;
    }
    if (chunk.length > 0) yield chunk;
  }

  #insert(pending: Pending[]): Promise<TimelineEvent[]> {
    return this.#db.transaction().execute(async (tx) => {
      const known = new Set(
        (
          await tx
            .selectFrom('timeline_events')
            .select('key')
            .where(
              'key',
              'in',
              pending.map((p) => p.row.key),
            )
            .execute()
        ).map((r) => r.key),
      );
      const kept: TimelineEvent[] = [];
      const rows: Pending['row'][] = [];
      for (const { row, fields } of pending) {
        if (known.has(row.key)) continue;
        known.add(row.key);
        rows.push(row);
        kept.push({ seq: row.seq, ...fields });
      }
      // One statement per `insertRows` rows: a statement each cost ~50 µs of compiling and preparing per row,
      // which a first sync of 60 000 objects turned into seconds with the event loop held (ADR 0100).
      for (let start = 0; start < rows.length; start += insertRows)
        await tx
          .insertInto('timeline_events')
          .values(rows.slice(start, start + insertRows))
          .execute();
      // A known key's seq is spent too: after a restart the recorder numbers on above it, so a number a live
      // subscriber saw (ADR 0073) never names another entry.
      const last = pending.at(-1)?.row.seq ?? 0;
      await sql`update sqlite_sequence set seq = max(seq, ${last}) where name = 'timeline_events'`.execute(
        tx,
      );
      await sql`insert into sqlite_sequence (name, seq) select 'timeline_events', ${last}
        where not exists (select 1 from sqlite_sequence where name = 'timeline_events')`.execute(tx);
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
    // Time order reads the ts index backwards; its entries carry the rowid (seq), which breaks ties.
    q = query.order === 'recorded' ? q.orderBy('seq', 'asc') : q.orderBy('ts', 'desc').orderBy('seq', 'desc');
    const rows = await q.limit(query.limit).execute();
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

  /**
   * A failed prune lets the files outgrow their cap and keep events past the retention: never a silent one.
   * The write that needed the room keeps its events.
   */
  async #guarded(prune: () => Promise<unknown>): Promise<void> {
    try {
      await prune();
    } catch (error) {
      this.#pruneFailures += 1;
      this.#options.log?.('timeline prune failed; the database may outgrow its retention and size cap', {
        err: error,
        path: this.#options.path,
        pruneFailures: this.#pruneFailures,
      });
    }
  }

  /**
   * Deletes events past the retention, then the oldest while the cap's measure is past the high-water mark, and
   * gives the freed pages back to the file system.
   */
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
    deleted += await this.#makeRoom();
    if (deleted > 0) {
      this.#sqlite.pragma('incremental_vacuum');
      this.#sqlite.pragma('wal_checkpoint(TRUNCATE)');
    }
    return { deleted };
  }

  /**
   * When the pages the database uses, its WAL and its shm file together are past the high-water mark, deletes
   * the oldest events until they are at the low-water mark, in rounds that each cut the share of rows the
   * database is over by, and empties the WAL the deletes filled. The freed pages stay in the file for the next
   * writes (cheaper than moving pages to give them back on every write); `prune` gives them back.
   */
  async #makeRoom(): Promise<number> {
    const beside = fileBytes(`${this.#options.path}-wal`) + fileBytes(`${this.#options.path}-shm`);
    if (this.#usedBytes() + beside <= this.#options.maxBytes * sizeCap.highWater) return 0;
    // The WAL comes back to about its present size with the next writes; the shm file stays.
    const target = this.#options.maxBytes * sizeCap.lowWater - beside;
    let deleted = 0;
    for (let used = this.#usedBytes(); used > target; used = this.#usedBytes()) {
      const { count } = await this.#db
        .selectFrom('timeline_events')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) === 0) break;
      const cut = Math.min(deleteRows, Math.max(1, Math.ceil(Number(count) * (1 - target / used))));
      const result = await this.#db
        .deleteFrom('timeline_events')
        .where('seq', 'in', (eb) =>
          eb.selectFrom('timeline_events').select('seq').orderBy('seq', 'asc').limit(cut),
        )
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    this.#sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return deleted;
  }

  /** Bytes of the pages the database uses (its free pages excluded), wherever they are (file or WAL). */
  #usedBytes(): number {
    const pages = Number(this.#sqlite.pragma('page_count', { simple: true }));
    const free = Number(this.#sqlite.pragma('freelist_count', { simple: true }));
    return (pages - free) * Number(this.#sqlite.pragma('page_size', { simple: true }));
  }

  /**
   * What the timeline takes on disk: the database, its WAL and its shm file. Three `stat` calls, cheaper than
   * the smallest write it follows.
   */
  sizeBytes(): number {
    const path = this.#options.path;
    return fileBytes(path) + fileBytes(`${path}-wal`) + fileBytes(`${path}-shm`);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#db.destroy();
  }
}
