import type { FastifyReply } from 'fastify';
import { SseStream, StreamLimit } from '../../http/sse.ts';
import type { FlowPair, FlowRecord } from './model.ts';
import { pairsOf, type TrafficService } from './service.ts';
import type { FlowView } from './visibility.ts';

export const flowStreamLimits = {
  clients: 100,
  heartbeatMs: 15_000,
  /** Deltas go out at most this often, batching the flows that came meanwhile. */
  tickMs: 1000,
  /** A lost follow is tried again after this. */
  retryMs: 5000,
  /** Flows kept for the open streams' windows; the oldest go first. */
  maxBuffered: 50_000,
  maxQueued: 1000,
};

interface Client {
  stream: SseStream;
  view: FlowView;
  windowMs: number;
  /** Each pair's last sent form, to send only what changed; undefined until the snapshot went out. */
  sent?: Map<string, string>;
}

/**
 * GET /api/traffic/flows/stream: one follow of the source shared by every client. Each client gets a
 * `snapshot` of its pairs, then a `delta` of the pairs that changed (and those that left its window) at most
 * once a tick, and `heartbeat`s; `unavailable` says why there is no source yet, and the stream keeps trying.
 */
export class FlowStreams {
  readonly #service: TrafficService;
  readonly #clients = new Set<Client>();
  readonly #limit = new StreamLimit('the traffic stream', flowStreamLimits.clients);
  #records: FlowRecord[] = [];
  #uids = new Set<string>();
  #dirty = false;
  #cancel?: () => void;
  #starting?: Promise<void>;
  #retryAt = 0;
  #timer?: ReturnType<typeof setInterval>;

  constructor(service: TrafficService) {
    this.#service = service;
  }

  get clients(): number {
    return this.#clients.size;
  }

  async open(reply: FastifyReply, view: FlowView, windowMs: number): Promise<void> {
    const release = this.#limit.acquire();
    const client: Client = {
      view,
      windowMs,
      stream: new SseStream(reply, {
        heartbeatMs: flowStreamLimits.heartbeatMs,
        maxQueued: flowStreamLimits.maxQueued,
      }),
    };
    this.#clients.add(client);
    client.stream.onClose(() => {
      this.#clients.delete(client);
      release();
      if (this.#clients.size === 0) this.#stop();
    });
    this.#timer ??= setInterval(() => void this.#tick(), flowStreamLimits.tickMs);
    this.#timer.unref();
    await this.#start(windowMs);
    this.#snapshot(client);
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
    const active = this.#service.activeOrAbsence();
    if (!('source' in active)) return this.#unavailable(active);
    const since = Date.now() - windowMs;
    const seed = await this.#service.hubbleFlows(since);
    if (!Array.isArray(seed)) return this.#unavailable(seed);
    this.#records = [];
    this.#uids.clear();
    for (const record of seed) this.#add(record);
    const client = await this.#service.hubble.client(this.#service.relay());
    if (!client) return this.#unavailable({ reason: this.#service.hubble.state.reason ?? 'not connected' });
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
        for (const c of this.#clients) c.stream.send('error', { reason });
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
    const pairs = this.#pairs(client, Date.now());
    client.sent = new Map(pairs.map((p) => [p.id, JSON.stringify(p)]));
    client.stream.send('snapshot', { available: true, source: 'hubble', windowMs: client.windowMs, pairs });
  }

  async #tick(): Promise<void> {
    if (!this.#cancel) {
      const widest = Math.max(0, ...[...this.#clients].map((c) => c.windowMs));
      await this.#start(widest);
      for (const client of this.#clients) if (!client.sent) this.#snapshot(client);
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
    for (const client of this.#clients) if (client.sent) this.#delta(client, this.#pairs(client, now));
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

  #stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#records = [];
    this.#uids.clear();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  close(): void {
    for (const client of this.#clients) client.stream.close();
    this.#stop();
  }
}
