import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AppError } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';

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
  /**
   * Frames waiting past which a producer that can pause is told to (`onBacklog`), well before `maxQueued` cuts
   * the reader loose: a source that can wait slows down instead of growing memory.
   */
  pauseAt?: number;
}

/**
 * A stream's events: each name and what its data is, as its route declares them (`sseEvents` in
 * `@binnacle/common/server`, ADR 0107); `message` is what a `data:`-only frame carries (EventSource's name for it).
 */
export type StreamEvents = Record<string, unknown>;

/** JSON text known to be the serialization of a `T`: one payload fanned out to many streams is serialized once. */
export type Serialized<T> = string & { readonly serializes: T };

export const serialize = <T>(value: T): Serialized<T> => JSON.stringify(value) as Serialized<T>;

/** How long a stream that says its last word (`finish`) waits for a reader that does not take it. */
const lastWordMs = 1000;

/**
 * One Server-Sent Events response. Frames are queued per connection and written as the socket drains, so a
 * slow reader only ever delays itself; one that falls `maxQueued` frames behind is cut loose.
 */
export class SseStream<Events extends StreamEvents> {
  readonly #res: ServerResponse;
  readonly #queue: string[] = [];
  readonly #options: Required<Pick<SseOptions, 'heartbeatMs' | 'maxQueued'>> &
    Pick<SseOptions, 'onOverflow' | 'pauseAt'>;
  readonly #closeListeners: (() => void)[] = [];
  readonly #drainListeners: (() => void)[] = [];
  readonly #backlogListeners: ((behind: boolean) => void)[] = [];
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #writing = false;
  #behind = false;
  #closed = false;

  constructor(reply: FastifyReply, options: SseOptions = {}) {
    this.#options = {
      heartbeatMs: options.heartbeatMs ?? 30_000,
      maxQueued: options.maxQueued ?? 1000,
      onOverflow: options.onOverflow,
      pauseAt: options.pauseAt,
    };
    reply.hijack();
    this.#res = reply.raw;
    this.#res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // HTTP/2 (the hub's tunnel, ADR 0111) has no connection headers: Node drops one with a process warning.
      ...(reply.request.raw.httpVersionMajor === 1 ? { Connection: 'keep-alive' } : {}),
      'X-Accel-Buffering': 'no',
    });
    this.#res.flushHeaders();
    this.#res.on('close', () => this.close());
    this.#res.on('error', () => this.close());
    this.#heartbeat = setInterval(
      () =>
        options.heartbeat === 'comment'
          ? this.#enqueue(`: heartbeat ${new Date().toISOString()}\n\n`)
          : this.#event('heartbeat', JSON.stringify({ time: new Date().toISOString() })),
      this.#options.heartbeatMs,
    );
    this.#heartbeat.unref();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queues one frame; returns false when the stream is closed (or was just closed for falling behind). */
  send<Name extends keyof Events & string>(event: Name, data: Events[Name], id?: string): boolean {
    return this.#event(event, JSON.stringify(data), id);
  }

  /** The same with data already serialized. */
  sendJson<Name extends keyof Events & string>(
    event: Name,
    json: Serialized<Events[Name]>,
    id?: string,
  ): boolean {
    return this.#event(event, json, id);
  }

  /** A frame of `data:` only (no event name): what EventSource's onmessage receives. */
  sendData(data: Events['message']): boolean {
    return this.#enqueue(`data: ${JSON.stringify(data)}\n\n`);
  }

  #event(event: string, json: string, id?: string): boolean {
    return this.#enqueue(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${json}\n\n`);
  }

  /** Closes the stream once every queued frame has been written (a stream that says its last word). */
  end(): void {
    this.#onceDrained(() => this.close());
  }

  /**
   * Ends the stream saying why (`end` with `{reason}`: a shutdown, a context switch, a time limit); a reader
   * too far behind to take that frame soon is not waited for.
   */
  finish(reason: string): void {
    if (this.#closed) return;
    this.#event('end', JSON.stringify({ reason }));
    this.end();
    const timer = setTimeout(() => this.close(), lastWordMs);
    timer.unref();
    this.onClose(() => clearTimeout(timer));
  }

  /**
   * Calls back with true when more than `pauseAt` frames wait for the reader, and with false once they are all
   * written: a producer that can pause (an API server stream) does so between the two.
   */
  onBacklog(listener: (behind: boolean) => void): void {
    this.#backlogListeners.push(listener);
  }

  #enqueue(frame: string): boolean {
    if (this.#closed) return false;
    if (this.#queue.length >= this.#options.maxQueued) {
      this.#options.onOverflow?.();
      this.close();
      return false;
    }
    this.#queue.push(frame);
    if (!this.#behind && this.#options.pauseAt !== undefined && this.#queue.length > this.#options.pauseAt) {
      this.#behind = true;
      for (const listener of this.#backlogListeners) listener(true);
      this.#onceDrained(() => {
        this.#behind = false;
        for (const listener of this.#backlogListeners) listener(false);
      });
    }
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

  /** Calls back once when every queued frame has been handed to the socket. */
  #onceDrained(listener: () => void): void {
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
    this.check();
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
