import { setTimeout as sleep } from 'node:timers/promises';
import { forwardableGroups } from '@binnacle/common/oidc';
import type { FastifyBaseLogger } from 'fastify';
import { decodeJwt } from 'jose';
import type { Clock } from '../../security/clock.ts';
import type { OidcClient } from '../identity/oidc-client.ts';
import type { ActiveSession, SessionStore } from './store.ts';

/** Refresh when the ID token has at most this long left (docs/architecture.md §6.2.1). */
export const refreshAheadMs = 60_000;
const leaseMs = 10_000;
const waitForOtherReplicaMs = 6_000;

export type RefreshOutcome =
  | { state: 'fresh'; groups: string[] }
  | { state: 'rejected' }
  | { state: 'unavailable' }
  | { state: 'client_misconfigured' };

/**
 * Keeps OIDC sessions' ID tokens (and so their groups) fresh. One refresh per session at a time: in this
 * process through a map of in-flight refreshes, across replicas through a lease on the session row — a
 * second refresh with a rotated refresh token would make the IdP revoke the grant.
 */
export class SessionRefresher {
  readonly #inFlight = new Map<string, Promise<RefreshOutcome>>();
  readonly #sessions: SessionStore;
  readonly #client: OidcClient;
  readonly #clock: Clock;
  readonly #groupsClaim: string;
  readonly #log: FastifyBaseLogger;

  constructor(options: {
    sessions: SessionStore;
    client: OidcClient;
    clock: Clock;
    groupsClaim: string;
    log: FastifyBaseLogger;
  }) {
    this.#sessions = options.sessions;
    this.#client = options.client;
    this.#clock = options.clock;
    this.#groupsClaim = options.groupsClaim;
    this.#log = options.log;
  }

  due(session: ActiveSession): boolean {
    if (session.method !== 'oidc' || !session.refreshToken || !session.idTokenExpiresAt) return false;
    return session.idTokenExpiresAt.getTime() - this.#clock.now().getTime() <= refreshAheadMs;
  }

  refresh(session: ActiveSession): Promise<RefreshOutcome> {
    const running = this.#inFlight.get(session.idHash);
    if (running) return running;
    const started = this.#refreshOnce(session).finally(() => this.#inFlight.delete(session.idHash));
    this.#inFlight.set(session.idHash, started);
    return started;
  }

  async #refreshOnce(session: ActiveSession): Promise<RefreshOutcome> {
    if (!(await this.#sessions.takeRefreshLease(session.idHash, leaseMs)))
      return this.#awaitOtherReplica(session);
    // The session may have been refreshed since this request read it (by an earlier request or a replica).
    const current = await this.#sessions.tokenState(session.idHash);
    if (current && this.#refreshedSince(session, current)) {
      await this.#sessions.releaseLease(session.idHash);
      return { state: 'fresh', groups: current.groups };
    }
    try {
      const tokens = await this.#client.refresh(session.refreshToken as string);
      const claims = tokens.claims();
      const previous = session.idToken ? decodeJwt(session.idToken) : undefined;
      // OIDC Core §12.2: a refreshed ID token must be about the same person.
      if (
        !tokens.id_token ||
        !claims ||
        (previous && (claims.sub !== previous.sub || claims.iss !== previous.iss))
      ) {
        await this.#sessions.end(session.idHash, 'idp_rejected');
        return { state: 'rejected' };
      }
      const { groups } = forwardableGroups(claims, this.#groupsClaim);
      await this.#sessions.storeRefreshed(session.idHash, {
        idToken: tokens.id_token,
        idTokenExpiresAt: new Date(claims.exp * 1000),
        groups,
        refreshToken: tokens.refresh_token ?? session.refreshToken,
      });
      return { state: 'fresh', groups };
    } catch (error) {
      const failure = this.#client.classifyRefreshError(error);
      if (failure === 'rejected') {
        await this.#sessions.end(session.idHash, 'idp_rejected');
        return { state: 'rejected' };
      }
      await this.#sessions.releaseLease(session.idHash);
      if (failure === 'client_misconfigured')
        this.#log.error(
          { err: error },
          'the IdP refused the hub client credentials at refresh (invalid_client): fix the OIDC client secret',
        );
      else
        this.#log.warn(
          { err: error },
          'ID token refresh failed: the IdP is unavailable; the session is kept',
        );
      return { state: failure };
    }
  }

  #refreshedSince(session: ActiveSession, current: { idTokenExpiresAt: Date | null }): boolean {
    return (
      current.idTokenExpiresAt !== null &&
      current.idTokenExpiresAt.getTime() !== session.idTokenExpiresAt?.getTime()
    );
  }

  /** Another replica holds the lease: wait (bounded) for its result to land in the row. */
  async #awaitOtherReplica(session: ActiveSession): Promise<RefreshOutcome> {
    const deadline = Date.now() + waitForOtherReplicaMs;
    while (Date.now() < deadline) {
      await sleep(100);
      const current = await this.#sessions.tokenState(session.idHash);
      if (!current) return { state: 'rejected' };
      if (this.#refreshedSince(session, current)) return { state: 'fresh', groups: current.groups };
    }
    return { state: 'unavailable' };
  }
}
