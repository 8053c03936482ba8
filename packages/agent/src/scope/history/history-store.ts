import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * How a stored state is written: the whole object, the operations that turn the object's previous stored state
 * into it, or its deletion.
 */
export type StateForm = 'whole' | 'ops' | 'deleted';
const formCode: Record<StateForm, number> = { whole: 0, ops: 1, deleted: 2 };
const formOf = ['whole', 'ops', 'deleted'] as const;

/** One state of one object as the disk keeps it (ADR 0114). */
export interface StoredState {
  uid: string;
  resource: string;
  namespace?: string;
  name: string;
  /** When it began (ms). */
  at: number;
  form: StateForm;
  /** The object's resourceVersion in that state (none for a deletion). */
  resourceVersion?: string;
  /** JSON: the object (`whole`) or the operations (`ops`); none for a deletion. */
  body?: string;
}

/** A span of time the agent did not watch a kind: its states then are not known. */
export interface Gap {
  resource: string;
  from: number;
  to: number;
}

interface Row {
  uid: string;
  resource: string;
  namespace: string;
  name: string;
  at: number;
  form: number;
  rv: string | null;
  body: string | null;
}

const schema = `
  create table if not exists states (
    uid text not null, at integer not null, resource text not null, namespace text not null, name text not null,
    form integer not null, rv text, body text, primary key (uid, at)
  ) without rowid;
  create index if not exists states_at on states (at);
  create table if not exists kinds (resource text primary key, since integer not null) without rowid;
  create table if not exists gaps (resource text not null, "from" integer not null, "to" integer not null);
  create table if not exists meta (key text primary key, value text not null) without rowid;
`;

/**
 * The objects' past states in a SQLite file beside the timeline's (`--timeline-storage sqlite`), so time travel
 * reaches back across restarts. Writes are the caller's batches, each one transaction; everything is synchronous
 * (better-sqlite3), so a batch is kept small by the journal that feeds it.
 */
export class HistoryStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #watched: Database.Statement;

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#insert = db.prepare(
      'insert or replace into states (uid, at, resource, namespace, name, form, rv, body) values (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#watched = db.prepare("insert or replace into meta (key, value) values ('watched_until', ?)");
  }

  static open(path: string): HistoryStore {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    db.exec(schema);
    return new HistoryStore(db);
  }

  /** Stores states and marks the time up to which the agent watched, in one transaction. */
  append(states: readonly StoredState[], watchedUntil: number): void {
    this.#db.transaction(() => {
      for (const s of states)
        this.#insert.run(
          s.uid,
          s.at,
          s.resource,
          s.namespace ?? '',
          s.name,
          formCode[s.form],
          s.resourceVersion ?? null,
          s.body ?? null,
        );
      this.#watched.run(String(watchedUntil));
    })();
  }

  /** Until when the last run watched the cluster (its last write); undefined for a new file. */
  watchedUntil(): number | undefined {
    const row = this.#db.prepare("select value from meta where key = 'watched_until'").get() as
      | { value: string }
      | undefined;
    return row ? Number(row.value) : undefined;
  }

  /** When each kind's kept history began. */
  kinds(): Map<string, number> {
    const rows = this.#db.prepare('select resource, since from kinds').all() as {
      resource: string;
      since: number;
    }[];
    return new Map(rows.map((r) => [r.resource, r.since]));
  }

  began(resource: string, since: number): void {
    this.#db.prepare('insert or ignore into kinds (resource, since) values (?, ?)').run(resource, since);
  }

  gaps(): Gap[] {
    return this.#db.prepare('select resource, "from", "to" from gaps order by "from"').all() as Gap[];
  }

  addGap(gap: Gap): void {
    this.#db
      .prepare('insert into gaps (resource, "from", "to") values (?, ?, ?)')
      .run(gap.resource, gap.from, gap.to);
  }

  /** Every stored state, each object's in the order they began, one object after another. */
  *states(): Generator<StoredState> {
    const rows = this.#db
      .prepare('select uid, at, resource, namespace, name, form, rv, body from states order by uid, at')
      .iterate() as IterableIterator<Row>;
    for (const row of rows) yield stateOf(row);
  }

  /** One stored state's body (the object or the operations). */
  body(uid: string, at: number): string | undefined {
    const row = this.#db.prepare('select body from states where uid = ? and at = ?').get(uid, at) as
      | { body: string | null }
      | undefined;
    return row?.body ?? undefined;
  }

  /**
   * Forgets what no moment from `floor` on needs: states superseded before it, except the whole one each later
   * operation builds on, objects deleted before it, and gaps that ended before it.
   */
  prune(floor: number): void {
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `delete from states where at < :floor and exists (
             select 1 from states later where later.uid = states.uid and later.at > states.at and later.at <= :floor
               and later.form != 1)`,
        )
        .run({ floor });
      this.#db
        .prepare(
          `delete from states where form = 2 and at <= :floor and not exists (
             select 1 from states later where later.uid = states.uid and later.at > states.at)`,
        )
        .run({ floor });
      this.#db.prepare('delete from gaps where "to" < ?').run(floor);
      this.#db.prepare('update kinds set since = ? where since < ?').run(floor, floor);
    })();
  }

  /** The size of the stored states as SQLite holds them (bytes of its pages in use). */
  sizeBytes(): number {
    const pages = Number(this.#db.pragma('page_count', { simple: true }));
    const free = Number(this.#db.pragma('freelist_count', { simple: true }));
    return (pages - free) * Number(this.#db.pragma('page_size', { simple: true }));
  }

  close(): void {
    this.#db.close();
  }
}

function stateOf(row: Row): StoredState {
  return {
    uid: row.uid,
    resource: row.resource,
    ...(row.namespace ? { namespace: row.namespace } : {}),
    name: row.name,
    at: row.at,
    form: formOf[row.form] ?? 'whole',
    ...(row.rv === null ? {} : { resourceVersion: row.rv }),
    ...(row.body === null ? {} : { body: row.body }),
  };
}
