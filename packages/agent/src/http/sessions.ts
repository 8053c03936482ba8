import { randomUUID } from 'node:crypto';

export type SessionKind = 'events' | 'logs' | 'exec' | 'terminal' | 'portforward' | 'download' | 'helm';

export interface SessionInfo {
  id: string;
  kind: SessionKind;
  startedAt: string;
  /** What it is attached to, e.g. `shop/web-7d9f` or `events: namespaces=shop`. */
  target: string;
}

export interface SessionHandle {
  readonly id: string;
  /** Removes the session from the registry (call when the stream ends). */
  end(): void;
}

/** Ends a session, saying why (the agent shuts down, or switched context): streams pass the reason on. */
export type SessionClose = (reason: string) => void;

/**
 * Every long-lived stream the agent serves — event streams, log streams, exec, terminals, port-forwards — with
 * a way to end them all (shutdown, a context switch). Features register their streams here; /api/sessions lists them.
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, { info: SessionInfo; close: SessionClose }>();

  open(kind: SessionKind, target: string, close: SessionClose): SessionHandle {
    const id = randomUUID();
    this.#sessions.set(id, { info: { id, kind, target, startedAt: new Date().toISOString() }, close });
    return { id, end: () => this.#sessions.delete(id) };
  }

  list(): SessionInfo[] {
    return [...this.#sessions.values()].map((s) => s.info);
  }

  counts(): Record<SessionKind, number> {
    const counts: Record<SessionKind, number> = {
      events: 0,
      logs: 0,
      exec: 0,
      terminal: 0,
      portforward: 0,
      download: 0,
      helm: 0,
    };
    for (const { info } of this.#sessions.values()) counts[info.kind] += 1;
    return counts;
  }

  /** Ends every session, telling each why. */
  closeAll(reason: string): void {
    for (const [id, session] of this.#sessions) {
      this.#sessions.delete(id);
      session.close(reason);
    }
  }
}
