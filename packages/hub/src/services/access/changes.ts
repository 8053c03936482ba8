/** Who made a change: this replica (while answering a request) or another one (heard over Redis). */
export type ChangeOrigin = 'local' | 'peer';

/**
 * Changes to who may reach what (sign-out, removal, role change, revoked PAT, rotated or deleted cluster,
 * refreshed groups). Whatever caches access or holds streams opened with it listens here; a change this
 * replica makes is also published to the other replicas (Redis), so every replica forgets stale access
 * within a second, not at its next periodic recheck.
 */
export class Changes {
  readonly #listeners = new Set<(origin: ChangeOrigin) => void>();
  #publish: (() => void) | undefined;

  onChange(listener: (origin: ChangeOrigin) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A change this replica made: local listeners at once, then the other replicas. */
  announce(): void {
    this.#notify('local');
    this.#publish?.();
  }

  /** A change another replica announced. */
  received(): void {
    this.#notify('peer');
  }

  /** Where announcements go beyond this process (the Redis channel when the hub runs several replicas). */
  publishTo(publish: () => void): void {
    this.#publish = publish;
  }

  #notify(origin: ChangeOrigin): void {
    for (const listener of this.#listeners) listener(origin);
  }
}
