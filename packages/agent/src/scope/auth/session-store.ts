import { randomBytes } from 'node:crypto';
import { sha256 } from '@binnacle/common/oidc';

/** A signed-in person, kept on the agent; the browser holds only a random id. */
export interface AuthSession {
  user: string;
  groups: string[];
  /** For RP-initiated logout (id_token_hint). */
  idToken: string;
  issuer: string;
  subject: string;
  /** The IdP session, for back-channel logout. */
  sid?: string;
  expiresAt: number;
}

/** A sign-in started at /auth/login, waiting for the IdP's callback. */
export interface PendingLogin {
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  bindingHash: string;
  expiresAt: number;
}

/**
 * The agent's sign-in state, in memory (one agent process; a restart signs everyone out — ADR 0030): sessions
 * by the SHA-256 of their 256-bit cookie id, pending sign-ins by the SHA-256 of their state, and the ids of
 * logout tokens already used. Expired entries are dropped as they are met and on every write.
 */
export class AuthSessionStore {
  readonly #sessions = new Map<string, AuthSession>();
  readonly #pending = new Map<string, PendingLogin>();
  readonly #usedLogoutTokens = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Opens a session; returns the cookie value (shown once, never stored). */
  open(session: AuthSession): string {
    this.#sweep();
    const id = randomBytes(32).toString('base64url');
    this.#sessions.set(sha256(id), session);
    return id;
  }

  find(cookieValue: string | undefined): AuthSession | undefined {
    if (!cookieValue) return undefined;
    const key = sha256(cookieValue);
    const session = this.#sessions.get(key);
    if (session && session.expiresAt <= this.#now()) this.#sessions.delete(key);
    return this.#sessions.get(key);
  }

  end(cookieValue: string | undefined): AuthSession | undefined {
    const session = this.find(cookieValue);
    if (cookieValue) this.#sessions.delete(sha256(cookieValue));
    return session;
  }

  /** Back-channel logout: the sessions of an IdP session (`sid`), else of the user (`sub`). */
  endForIdp(issuer: string, subject: string | undefined, sid: string | undefined): number {
    let ended = 0;
    for (const [key, session] of this.#sessions) {
      const matches =
        session.issuer === issuer &&
        (sid === undefined || session.sid === sid) &&
        (subject === undefined || session.subject === subject);
      if (matches) {
        this.#sessions.delete(key);
        ended++;
      }
    }
    return ended;
  }

  get size(): number {
    return this.#sessions.size;
  }

  addPending(state: string, login: PendingLogin): void {
    this.#sweep();
    this.#pending.set(sha256(state), login);
  }

  /** Takes a pending sign-in once: a replayed callback finds nothing. */
  takePending(state: string): PendingLogin | undefined {
    const key = sha256(state);
    const login = this.#pending.get(key);
    this.#pending.delete(key);
    return login;
  }

  /** Remembers a logout token's id until it expires; false when it was used already. */
  firstUseOfLogoutToken(jti: string, expiresAt: number): boolean {
    this.#sweep();
    if (this.#usedLogoutTokens.has(jti)) return false;
    this.#usedLogoutTokens.set(jti, expiresAt);
    return true;
  }

  #sweep(): void {
    const now = this.#now();
    for (const map of [this.#sessions, this.#pending] as Map<string, { expiresAt: number }>[])
      for (const [key, entry] of map) if (entry.expiresAt <= now) map.delete(key);
    for (const [jti, expiresAt] of this.#usedLogoutTokens)
      if (expiresAt <= now) this.#usedLogoutTokens.delete(jti);
  }
}
