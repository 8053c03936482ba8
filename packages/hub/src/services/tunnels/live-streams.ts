import type { TypedApp } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import type { HubDatabase } from '../../db/database.ts';
import type { Clock } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';
import type { Changes } from '../access/changes.ts';
import type { SessionStore } from '../sessions/store.ts';

interface Holder {
  userId: string;
  /** The organization of the cluster the stream goes to: the role the cluster saw is the role there. */
  orgId: string;
  role: string;
  /** The session's forwarded groups when the stream opened (a refresh that changes them changes the identity). */
  groups: string;
  sessionIdHash?: string;
  patId?: string;
  /** A token credential's own end (ms), if any. */
  expiresAt?: number;
  close(): void;
}

const batch = 500;
const recheckEveryMs = 15_000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += batch) out.push(items.slice(i, i + batch));
  return out;
}

/**
 * The tunneled requests in flight (answers, SSE streams, WebSockets) and who they act for. A stream lives
 * only as long as the access it was opened with: `recheck` cuts every stream whose member was removed or had
 * their role changed, whose session is no longer active by the session rules (sign-out, removal, refresh
 * rejected, back-channel logout, lifetime, inactivity) or whose groups changed, whose PAT was revoked, or
 * whose token expired. The hub rechecks after every change it makes and periodically, which also covers
 * expiry and changes made by another replica.
 */
export class LiveStreams {
  readonly #database: HubDatabase;
  readonly #sessions: SessionStore;
  readonly #clock: Clock;
  readonly #holders = new Set<Holder>();

  constructor(database: HubDatabase, sessions: SessionStore, clock: Clock) {
    this.#database = database;
    this.#sessions = sessions;
    this.#clock = clock;
  }

  get size(): number {
    return this.#holders.size;
  }

  /** Registers a stream; the returned function forgets it (call it when the stream ends). */
  track(principal: Principal, close: () => void): () => void {
    const holder: Holder = {
      userId: principal.user.id,
      orgId: principal.orgId,
      role: principal.role,
      groups: JSON.stringify(principal.groups),
      sessionIdHash: principal.via === 'session' ? principal.session?.idHash : undefined,
      patId: principal.patId,
      expiresAt: principal.expiresAt?.getTime(),
      close,
    };
    this.#holders.add(holder);
    return () => this.#holders.delete(holder);
  }

  /** Cuts the streams whose access is gone or changed; returns how many. */
  async recheck(): Promise<number> {
    if (this.#holders.size === 0) return 0;
    const holders = [...this.#holders];
    const { db } = this.#database;
    const roles = new Map<string, string>();
    for (const users of chunks([...new Set(holders.map((h) => h.userId))])) {
      const rows = await db
        .selectFrom('memberships')
        .select(['user_id', 'org_id', 'role'])
        .where('user_id', 'in', users)
        .execute();
      for (const row of rows) roles.set(`${row.user_id} ${row.org_id}`, row.role);
    }
    const sessionGroups = new Map<string, string>();
    const idHashes = holders.flatMap((h) => (h.sessionIdHash ? [h.sessionIdHash] : []));
    for (const some of chunks([...new Set(idHashes)])) {
      for (const [idHash, groups] of await this.#sessions.activeAmong(some))
        sessionGroups.set(idHash, groups);
    }
    const pats = new Set<string>();
    const patIds = holders.flatMap((h) => (h.patId ? [h.patId] : []));
    for (const some of chunks([...new Set(patIds)])) {
      const rows = await db.selectFrom('pats').select('id').where('id', 'in', some).execute();
      for (const row of rows) pats.add(row.id);
    }
    const now = this.#clock.now().getTime();
    let cut = 0;
    for (const holder of holders) {
      const gone =
        (holder.expiresAt !== undefined && holder.expiresAt <= now) ||
        roles.get(`${holder.userId} ${holder.orgId}`) !== holder.role ||
        (holder.sessionIdHash !== undefined && sessionGroups.get(holder.sessionIdHash) !== holder.groups) ||
        (holder.patId !== undefined && !pats.has(holder.patId));
      if (!gone || !this.#holders.delete(holder)) continue;
      cut++;
      holder.close();
    }
    return cut;
  }
}

/**
 * When the hub rechecks: after every change it answers (a member removed or demoted, a PAT revoked, a
 * sign-out …), before that answer goes out, so the streams the change ends are cut by then; when another
 * replica announces a change; and every 15 s, for expiry and anything an announcement missed. Requests that
 * act in clusters (`changesNoAccess(url)`: tunneled ones, MCP calls) change nothing here.
 */
export function recheckAfterChanges(
  app: TypedApp,
  ctx: { liveStreams: LiveStreams; changes: Changes; log: FastifyBaseLogger },
  changesNoAccess: (url: string) => boolean,
): void {
  // The recheck an announcement started last: the hook below waits for the one its own change started.
  let latest: Promise<unknown> = Promise.resolve();
  const recheck = () => {
    latest = ctx.liveStreams
      .recheck()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'rechecking tunneled streams failed'));
    return latest;
  };
  // Every change, announced here (the hook below, a refresh during a GET) or by another replica.
  const forget = ctx.changes.onChange(() => void recheck());
  app.addHook('onSend', async (request, reply, payload) => {
    const changes = !['GET', 'HEAD', 'OPTIONS'].includes(request.method) && reply.statusCode < 400;
    if (!changes || changesNoAccess(request.url)) return payload;
    ctx.changes.announce();
    // The change is made: a failed recheck must not turn its answer into an error (the periodic one retries).
    await latest;
    return payload;
  });
  const timer = setInterval(() => void recheck(), recheckEveryMs);
  timer.unref();
  app.addHook('preClose', (done) => {
    clearInterval(timer);
    forget();
    done();
  });
}
