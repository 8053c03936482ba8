import type { Clock } from '../../security/clock.ts';

export interface AccessCacheLimits {
  /** How long an entry is trusted without an announcement: the bound when an announcement is missed. */
  ttlMs: number;
  /** Entries kept; the oldest go first (each lives at most `ttlMs`, so the oldest is also the least fresh). */
  maxEntries: number;
}

export const accessCacheDefaults: AccessCacheLimits = { ttlMs: 10_000, maxEntries: 10_000 };

interface Entry {
  value: unknown;
  until: number;
}

/**
 * The rows a request's access is decided from (a session with its user and membership, a PAT with its
 * membership, a role in another organization, a cluster), kept so a steady stream of requests by the same
 * caller touches no database (ADR 0043). It holds rows, never verdicts: every rule that depends on time is
 * evaluated per request against the row. Any change to access empties it (`clear`, wired to
 * `ctx.changes`); a load that started before a clear is answered but not kept, so a row read before a change
 * cannot outlive it here.
 */
export class AccessCache {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: Clock;
  readonly #limits: AccessCacheLimits;
  #generation = 0;

  constructor(clock: Clock, limits: AccessCacheLimits = accessCacheDefaults) {
    this.#clock = clock;
    this.#limits = limits;
  }

  /** The value under `key`, loaded when missing or stale; `undefined` (nothing found) is never kept. */
  async remember<T extends object>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const now = this.#clock.now().getTime();
    const entry = this.#entries.get(key);
    if (entry && entry.until > now) return entry.value as T;
    if (entry) this.#entries.delete(key);
    const generation = this.#generation;
    const value = await load();
    if (value === undefined || generation !== this.#generation) return value;
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: now + this.#limits.ttlMs });
    if (this.#entries.size > this.#limits.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    return value;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
