import type { StreamEventsOf } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import type { SessionRegistry } from '../../http/sessions.ts';
import type { SseStream } from '../../http/sse.ts';
import { SseFanout } from '../../http/sse-fanout.ts';
import type { SourceName } from './detect.ts';
import type { MetricSource } from './metrics-flows.ts';
import { pollMetricPairs } from './metrics-stream.ts';
import type { FlowPair, FlowRecord } from './model.ts';
import type { flowStreamEvents } from './schemas.ts';
import { pairsOf, type TrafficService } from './service.ts';
import type { FlowView } from './visibility.ts';

export const flowStreamLimits = {
  clients: 100,
  heartbeatMs: 15_000,
  /** Deltas go out at most this often, batching the flows that came meanwhile. */
  tickMs: 1000,
  /** A lost follow is tried again after this. */
  retryMs: 5000,
  /** Metric-based sources are read from the store this often (their scrapers rarely run more often). */
  pollMs: 15_000,
  /** Flows kept for the open streams' windows; the oldest go first. */
  maxBuffered: 50_000,
  maxQueued: 1000,
};

type FlowStreamEvents = StreamEventsOf<typeof flowStreamEvents>;

interface Client {
  stream: SseStream<FlowStreamEvents>;
  view: FlowView;
  windowMs: number;
  /** Each pair's last sent form, to send only what changed; undefined until the snapshot went out. */
  sent?: Map<string, string>;
  /** An `error` went out since: the next good read is a whole `snapshot`, so the client knows it is live again. */
  stale?: boolean;
}

/**
 * GET /api/traffic/flows/stream: one follow of the source shared by every client. Each client gets a
 * `snapshot` of its pairs, then a `delta` of the pairs that changed (and those that left its window) at most
 * once a tick, and `heartbeat`s; `unavailable` says why there is no source yet, and the stream keeps trying.
 */
export class FlowStreams {
  readonly #service: TrafficService;
  readonly #clients: SseFanout<FlowStreamEvents, Client>;
  #records: FlowRecord[] = [];
  #uids = new Set<string>();
  #dirty = false;
  #cancel?: () => void;
  #starting?: Promise<void>;
  #retryAt = 0;
  #timer?: ReturnType<typeof setInterval>;
  #source: SourceName = 'hubble';
  /** Set while a metric-based source is polled instead of a Hubble follow. */
  #metric?: { source: MetricSource; polledAt: number; polling: boolean };

  constructor(service: TrafficService, sessions: SessionRegistry) {
    this.#service = service;
    // Sessions, so a context switch ends them (with the reason) and the follow of the old cluster's flows stops.
    this.#clients = new SseFanout(sessions, {
      label: 'the traffic stream',
      max: flowStreamLimits.clients,
      kind: 'events',
      heartbeatMs: flowStreamLimits.heartbeatMs,
      maxQueued: flowStreamLimits.maxQueued,
      onIdle: () => this.#stop(),
    });
  }

  async open(reply: FastifyReply, view: FlowView, windowMs: number): Promise<void> {
    const client = this.#clients.open(reply, 'traffic flows', (stream) => ({ stream, view, windowMs }));
    this.#timer ??= setInterval(() => void this.#tick(), flowStreamLimits.tickMs);
    this.#timer.unref();
    await this.#start(windowMs);
    if (this.#metric) await this.#poll([client]);
    else this.#snapshot(client);
  }

  /** Reads the window, then follows from its last flow; flows both return (same uid) count once. */
  #start(windowMs: number): Promise<void> {
    if (this.#cancel || Date.now() < this.#retryAt) return Promise.resolve();
    this.#starting ??= this.#follow(windowMs).finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #follow(windowMs: number): Promise<void> {
    const active = await this.#service.activeOrAbsence();
    if (!('source' in active)) return this.#unavailable(active);
    this.#source = active.source;
    if (active.source !== 'hubble') {
      this.#metric = { source: active.source, polledAt: Date.now(), polling: false };
      this.#cancel = () => {
        this.#metric = undefined;
      };
      return;
    }
    const since = Date.now() - windowMs;
    const seed = await this.#service.hubbleFlows(since);
    if (!Array.isArray(seed)) return this.#unavailable(seed);
    this.#records = [];
    this.#uids.clear();
    for (const record of seed) this.#add(record);
    const client = await this.#service.hubble.client(this.#service.relay());
    if (!client) return this.#unavailable({ reason: this.#service.hubble.state.reason ?? 'not connected' });
    // The last client may have left while the window was read: a follow now would run for nobody.
    if (this.#clients.size === 0) return;
    const from = seed.reduce((latest, r) => Math.max(latest, r.time), since);
    this.#cancel = client.follow(
      from,
      (record) => {
        this.#add(record);
        this.#dirty = true;
      },
      (error) => {
        this.#cancel = undefined;
        this.#retryAt = Date.now() + flowStreamLimits.retryMs;
        this.#service.hubble.failed(error ?? new Error('the relay ended the flow stream'));
        const reason = `the flow stream from ${client.address} ended: ${this.#service.hubble.state.reason}`;
        for (const c of this.#clients) this.#error(c, { reason });
      },
    );
    this.#dirty = true;
  }

  #unavailable(why: { reason: string }): void {
    this.#retryAt = Date.now() + flowStreamLimits.retryMs;
    for (const client of this.#clients)
      if (!client.sent) client.stream.send('unavailable', { available: false, ...why });
  }

  #add(record: FlowRecord): void {
    if (record.uid) {
      if (this.#uids.has(record.uid)) return;
      this.#uids.add(record.uid);
    }
    this.#records.push(record);
    if (this.#records.length > flowStreamLimits.maxBuffered)
      this.#forget(this.#records.length - flowStreamLimits.maxBuffered);
  }

  #forget(count: number): void {
    for (const record of this.#records.splice(0, count)) if (record.uid) this.#uids.delete(record.uid);
  }

  #pairs(client: Client, now: number): FlowPair[] {
    const since = now - client.windowMs;
    const inWindow = this.#records.filter((r) => r.time >= since);
    return pairsOf(this.#service.resolver(), inWindow, client.view, client.windowMs);
  }

  #snapshot(client: Client): void {
    if (!this.#cancel || client.stream.closed) return;
    this.#send(client, this.#pairs(client, Date.now()));
  }

  /** The snapshot to a new client or one told of an error, else the delta of what changed since it was last sent. */
  #send(client: Client, pairs: FlowPair[]): void {
    if (client.sent && !client.stale) {
      this.#delta(client, pairs);
      return;
    }
    client.stale = false;
    client.sent = new Map(pairs.map((p) => [p.id, JSON.stringify(p)]));
    client.stream.send('snapshot', {
      available: true,
      source: this.#source,
      windowMs: client.windowMs,
      pairs,
    });
  }

  /** One read of the metrics source for these clients; a failed read is an `error` event, polled again. */
  async #poll(clients: Client[]): Promise<void> {
    const metric = this.#metric;
    if (!metric) return;
    // A failed read must not end the agent: the tick that called this is not awaited by anyone.
    const answers = await pollMetricPairs(this.#service, metric.source, clients, Date.now()).catch(
      (error: unknown) => new Map(clients.map((c) => [c, { reason: (error as Error).message }])),
    );
    // Another source was chosen meanwhile: these pairs are the old one's.
    if (this.#metric !== metric) return;
    for (const [client, answer] of answers)
      if (client.stream.closed) continue;
      else if (Array.isArray(answer)) this.#send(client, answer);
      else if (client.sent) this.#error(client, answer);
      else client.stream.send('unavailable', { available: false, ...answer });
  }

  #error(client: Client, why: { reason: string }): void {
    client.stale = true;
    client.stream.send('error', { available: false, ...why });
  }

  async #tick(): Promise<void> {
    const metric = this.#metric;
    if (metric) {
      if (metric.polling || Date.now() - metric.polledAt < flowStreamLimits.pollMs) return;
      metric.polling = true;
      metric.polledAt = Date.now();
      await this.#poll([...this.#clients]).finally(() => {
        metric.polling = false;
      });
      return;
    }
    if (!this.#cancel) {
      const widest = Math.max(0, ...[...this.#clients].map((c) => c.windowMs));
      await this.#start(widest);
      const unsent = [...this.#clients].filter((c) => !c.sent);
      if (this.#metric) await this.#poll(unsent);
      else for (const client of unsent) this.#snapshot(client);
      return;
    }
    const now = Date.now();
    const widest = Math.max(0, ...[...this.#clients].map((c) => c.windowMs));
    const expired = this.#records.findIndex((r) => r.time >= now - widest);
    if (this.#records.length > 0 && expired !== 0) {
      this.#forget(expired < 0 ? this.#records.length : expired);
      this.#dirty = true;
    }
    if (!this.#dirty) return;
    this.#dirty = false;
    for (const client of this.#clients) if (client.sent) this.#send(client, this.#pairs(client, now));
  }

  #delta(client: Client, pairs: FlowPair[]): void {
    const sent = client.sent as Map<string, string>;
    const changed: FlowPair[] = [];
    const current = new Set<string>();
    for (const pair of pairs) {
      current.add(pair.id);
      const json = JSON.stringify(pair);
      if (sent.get(pair.id) !== json) {
        changed.push(pair);
        sent.set(pair.id, json);
      }
    }
    const removed = [...sent.keys()].filter((id) => !current.has(id));
    for (const id of removed) sent.delete(id);
    if (changed.length > 0 || removed.length > 0) client.stream.send('delta', { changed, removed });
  }

  /**
   * Another source was chosen: drop the follow of the old one at once (open streams would otherwise keep it until
   * the last client left) and give every client a fresh snapshot from the next tick.
   */
  restart(): void {
    this.#release();
    this.#retryAt = 0;
    for (const client of this.#clients) {
      client.sent = undefined;
      client.stale = false;
    }
  }

  #release(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#records = [];
    this.#uids.clear();
  }

  #stop(): void {
    this.#release();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  close(): void {
    this.#clients.close();
    this.#stop();
  }
}
