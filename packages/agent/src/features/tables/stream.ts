import { type StreamEventsOf, toAppError } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import type { SseStream } from '../../http/sse.ts';
import { SseFanout } from '../../http/sse-fanout.ts';
import { resourceKey } from '../../kube/discovery.ts';
import type { TablesContext } from './module.ts';
import type { tableStreamEvents } from './schemas.ts';
import type { TableQuery, TableService } from './service.ts';
import { diffWindow, type SentWindow, sentWindow } from './window.ts';

export const tableStreamLimits = {
  clients: 200,
  heartbeatMs: 30_000,
  maxQueued: 100,
  /** At most one frame per subscriber this often, however many objects change. */
  minIntervalMs: 250,
  /** How often pods' and nodes' windows look for a new metrics poll. */
  metricsCheckMs: 2000,
  /** Kinds the agent does not cache have no events: their windows are listed again this often. */
  liveRefreshMs: 10_000,
};

type TableStreamEvents = StreamEventsOf<typeof tableStreamEvents>;

interface Subscriber {
  stream: SseStream<TableStreamEvents>;
  query: TableQuery;
  key: string;
  live: boolean;
  sent?: SentWindow;
  columns: string;
  metricsPolls: number;
  lastFlush: number;
  timer?: ReturnType<typeof setTimeout>;
  flushing: boolean;
  /** A change arrived while a flush was running: flush again after it. */
  again: boolean;
}

/**
 * Whether a change in `namespace` (undefined: anywhere) may touch a query's rows: a table of some namespaces is not
 * sorted again, at 50 000 rows, for every change in the others.
 */
const shows = (query: TableQuery, namespace: string | undefined) =>
  namespace === undefined || query.namespaces === undefined || query.namespaces.includes(namespace);

/**
 * GET /api/tables/:kind/stream: the window first (`window`), then only what changed in it (`patch`: rows
 * changed or added, uids removed, the new order, total, statuses), coalesced to a few frames a second per
 * subscriber; a new `window` when the columns change (metrics appeared). ADR 0054.
 */
export class TableStreams {
  readonly #ctx: TablesContext;
  readonly #tables: TableService;
  readonly #subscribers: SseFanout<TableStreamEvents, Subscriber>;
  readonly #unsubscribe: () => void;
  #ticker?: ReturnType<typeof setInterval>;

  constructor(ctx: TablesContext, tables: TableService) {
    this.#ctx = ctx;
    this.#tables = tables;
    this.#subscribers = new SseFanout(ctx.sessions, {
      label: 'table streaming',
      max: tableStreamLimits.clients,
      kind: 'events',
      heartbeatMs: tableStreamLimits.heartbeatMs,
      maxQueued: tableStreamLimits.maxQueued,
      onIdle: () => {
        clearInterval(this.#ticker);
        this.#ticker = undefined;
      },
    });
    this.#unsubscribe = tables.onChange((key, namespace) => {
      for (const subscriber of this.#subscribers)
        if (subscriber.key === key && shows(subscriber.query, namespace)) this.#schedule(subscriber);
    });
  }

  async open(reply: FastifyReply, query: TableQuery): Promise<void> {
    const resource = this.#ctx.cluster.resolve(query.kind, query.group);
    // The first window before the stream opens: a query the route would refuse is a plain error answer.
    const first = await this.#tables.window(query);
    const key = resourceKey(resource);
    const subscriber = this.#subscribers.open(reply, `table ${key}`, (stream) => ({
      stream,
      query,
      key,
      live: first.source === 'live',
      sent: sentWindow(first),
      columns: JSON.stringify(first.columns),
      metricsPolls: this.#tables.metricsPolls,
      lastFlush: Date.now(),
      flushing: false,
      again: false,
    }));
    subscriber.stream.send('window', first);
    subscriber.stream.onClose(() => clearTimeout(subscriber.timer));
    this.#ticker ??= setInterval(() => this.#tick(), tableStreamLimits.metricsCheckMs);
    this.#ticker.unref();
  }

  /** Pods and nodes follow the metrics polls; kinds not cached are listed again every `liveRefreshMs`. */
  #tick(): void {
    const now = Date.now();
    const polls = this.#tables.metricsPolls;
    for (const subscriber of this.#subscribers) {
      const metricsMoved = subscriber.metricsPolls !== polls && ['pods', 'nodes'].includes(subscriber.key);
      const stale = subscriber.live && now - subscriber.lastFlush >= tableStreamLimits.liveRefreshMs;
      if (metricsMoved || stale) this.#schedule(subscriber);
    }
  }

  #schedule(subscriber: Subscriber): void {
    if (subscriber.flushing) {
      subscriber.again = true;
      return;
    }
    if (subscriber.timer) return;
    const wait = Math.max(0, subscriber.lastFlush + tableStreamLimits.minIntervalMs - Date.now());
    subscriber.timer = setTimeout(() => void this.#flush(subscriber), wait);
  }

  async #flush(subscriber: Subscriber): Promise<void> {
    subscriber.timer = undefined;
    subscriber.flushing = true;
    subscriber.metricsPolls = this.#tables.metricsPolls;
    try {
      const next = await this.#tables.window(subscriber.query);
      if (subscriber.stream.closed) return;
      const columns = JSON.stringify(next.columns);
      if (columns !== subscriber.columns || !subscriber.sent) {
        subscriber.columns = columns;
        subscriber.sent = sentWindow(next);
        subscriber.stream.send('window', next);
      } else {
        const { patch, sent } = diffWindow(subscriber.sent, next);
        subscriber.sent = sent;
        if (patch) subscriber.stream.send('patch', patch);
      }
    } catch (error) {
      // The kind went away or is loading again (a context switch): the client keeps its rows and hears why.
      const { message, code } = toAppError(error);
      subscriber.stream.send('error', { error: message, code });
    } finally {
      subscriber.lastFlush = Date.now();
      subscriber.flushing = false;
      if (subscriber.again) {
        subscriber.again = false;
        this.#schedule(subscriber);
      }
    }
  }

  close(): void {
    this.#unsubscribe();
    clearInterval(this.#ticker);
    this.#subscribers.close();
  }
}
