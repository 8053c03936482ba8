import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AppError } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import type { SessionKind, SessionRegistry } from './sessions.ts';

export interface SseOptions {
  /** A heartbeat frame this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** Frames waiting for a slow reader; past this the stream is closed (the client reconnects and resumes). */
  maxQueued?: number;
  /** Called when the stream had to be closed because its reader fell behind. */
  onOverflow?: () => void;
  /**
   * Heartbeats as a named `heartbeat` event (the default) or as SSE comments, for streams whose frames are
   * `data:` only and whose readers treat every frame as a message.
   */
  heartbeat?: 'event' | 'comment';
}

/**
 * One Server-Sent Events response. Frames are queued per connection and written as the socket drains, so a
 * slow reader only ever delays itself; one that falls `maxQueued` frames behind is cut loose.
 */
export class SseStream {
  readonly #res: ServerResponse;
  readonly #queue: string[] = [];
  readonly #options: Required<Omit<SseOptions, 'onOverflow' | 'heartbeat'>> & Pick<SseOptions, 'onOverflow'>;
  readonly #closeListeners: (() => void)[] = [];
  readonly #drainListeners: (() => void)[] = [];
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #writing = false;
  #closed = false;

  constructor(reply: FastifyReply, options: SseOptions = {}) {
    this.#options = {
      heartbeatMs: options.heartbeatMs ?? 30_000,
      maxQueued: options.maxQueued ?? 1000,
      onOverflow: options.onOverflow,
    };
    reply.hijack();
    this.#res = reply.raw;
    this.#res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.#res.flushHeaders();
    this.#res.on('close', () => this.close());
    this.#res.on('error', () => this.close());
    this.#heartbeat = setInterval(
      () =>
        options.heartbeat === 'comment'
          ? this.#enqueue(`: heartbeat ${new Date().toISOString()}\n\n`)
          : this.send('heartbeat', { time: new Date().toISOString() }),
      this.#options.heartbeatMs,
    );
    this.#heartbeat.unref();
  }

  get closed(): boolean {
    return this.#closed;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** Queues one frame; returns false when the stream is closed (or was just closed for falling behind). */
  send(event: string, data: unknown, id?: string): boolean {
    return this.sendJson(event, JSON.stringify(data), id);
  }

  /** The same with data already serialized, so one payload fanned out to many streams is serialized once. */
  sendJson(event: string, json: string, id?: string): boolean {
    return this.#enqueue(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${json}\n\n`);
  }

  /** A frame of `data:` only (no event name): what EventSource's onmessage receives. */
  sendData(data: unknown): boolean {
    return this.#enqueue(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** Closes the stream once every queued frame has been written (a stream that says its last word). */
  end(): void {
    this.onceDrained(() => this.close());
  }

  #enqueue(frame: string): boolean {
    if (this.#closed) return false;
    if (this.#queue.length >= this.#options.maxQueued) {
      this.#options.onOverflow?.();
      this.close();
      return false;
    }
    this.#queue.push(frame);
    void this.#drain();
    return true;
  }

  async #drain(): Promise<void> {
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const frame = this.#queue.shift() as string;
        if (!this.#res.write(frame)) await once(this.#res, 'drain').catch(() => undefined);
      }
    } finally {
      this.#writing = false;
    }
    if (!this.#closed) for (const listener of this.#drainListeners.splice(0)) listener();
  }

  /** Calls back once when every queued frame has been handed to the socket (for producers that pause). */
  onceDrained(listener: () => void): void {
    if (this.#queue.length === 0 && !this.#writing) listener();
    else this.#drainListeners.push(listener);
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closeListeners.push(listener);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#queue.length = 0;
    if (!this.#res.writableEnded) this.#res.end();
    this.#res.destroy();
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
}

/** Counts open streams of one kind and refuses the one past the cap with 503 `too_many_streams`. */
export class StreamLimit {
  readonly #max: number;
  readonly #label: string;
  #open = 0;

  constructor(label: string, max: number) {
    this.#label = label;
    this.#max = max;
  }

  get open(): number {
    return this.#open;
  }

  /** Throws 503 `too_many_streams` when no slot is free (without taking one). */
  check(): void {
    if (this.#open >= this.#max) {
      throw new AppError('too_many_streams', `${this.#label} already has ${this.#max} clients; retry later`, {
        headers: { 'Retry-After': '5' },
      });
    }
  }

  /** Takes a slot or throws; call the returned function when the stream ends. */
  acquire(): () => void {
    if (this.#open >= this.#max) {
      throw new AppError('too_many_streams', `${this.#label} already has ${this.#max} clients; retry later`, {
        headers: { 'Retry-After': '5' },
      });
    }
    this.#open += 1;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.#open -= 1;
      }
    };
  }
}

/** Where a long-lived stream is registered: its cap, and the session a shutdown or context switch ends. */
export interface StreamSession {
  limit: StreamLimit;
  sessions: SessionRegistry;
  kind: SessionKind;
  target: string;
}

/**
 * An SSE response that takes a slot of `limit` (503 when none is free) and is listed as a session: ending the
 * session (shutdown, a context switch) sends `end` with the reason and closes the stream once it is written;
 * closing the stream, for whatever reason, frees both.
 */
export function openSessionStream(
  reply: FastifyReply,
  session: StreamSession,
  options: SseOptions,
): SseStream {
  const release = session.limit.acquire();
  const stream = new SseStream(reply, options);
  const handle = session.sessions.open(session.kind, session.target, (reason) => {
    stream.send('end', { reason });
    stream.end();
  });
  stream.onClose(() => {
    handle.end();
    release();
  });
  return stream;
}
