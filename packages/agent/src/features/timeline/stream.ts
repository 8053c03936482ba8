import { createHash } from 'node:crypto';
import type { StreamEventsOf } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AuditSettings } from '../../config/agent-config.ts';
import { type Serialized, type SseStream, serialize } from '../../http/sse.ts';
import { SseFanout } from '../../http/sse-fanout.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { matches } from '../../scope/timeline/store/filter.ts';
import type { TimelineEvent } from '../../scope/timeline/types.ts';
import type { Topology } from '../../scope/topology/model.ts';
import { Topology as TopologySchema } from '../../scope/topology/schemas.ts';
import type { TimelineContext } from './module.ts';
import { type Preset, presetQuery } from './service.ts';

export const streamLimits = {
  replay: 1000,
  maxQueued: 1000,
  heartbeatMs: 30_000,
  topologyDebounceMs: 1000,
};

export interface StreamRequest {
  /** Undefined: every namespace; empty: none. */
  namespaces?: string[];
  /** Kinds the caller may not see (callerView). */
  hiddenKinds?: string[];
  /** PodGroup ids the topology shows as their pods. */
  expand?: string[];
  preset: Preset;
  /** `<epoch>:<seq>` of the last event the client saw (Last-Event-ID). */
  lastEventId?: string;
}

/** What GET /api/events/stream sends. */
export const changeStreamEvents = {
  hello: Type.Object({ epoch: Type.String(), latestSeq: Type.Integer() }),
  reset: Type.Object({ reason: Type.String(), epoch: Type.String() }),
  change: Type.Unsafe<TimelineEvent>(Type.Ref('TimelineEvent')),
  topology: TopologySchema,
};
type ChangeStreamEvents = StreamEventsOf<typeof changeStreamEvents>;

interface Client {
  stream: SseStream<ChangeStreamEvents>;
  request: StreamRequest;
  test: (event: TimelineEvent) => boolean;
  /** Fingerprint of the last topology sent: a rebuilt but identical graph is not sent again. */
  lastTopology?: string;
  /** Live events held back while missed ones are replayed, so the client sees each once and in order. */
  held?: TimelineEvent[];
  lastSeq: number;
}

/**
 * GET /api/events/stream: a topology snapshot on connect, then every recorded change as it happens, a fresh
 * topology when it changed (debounced), and heartbeats. Each client has its own queue, so a slow reader delays
 * only itself and is cut loose when it falls too far behind; reconnecting with Last-Event-ID resumes from the cursor.
 */
export class ChangeStreams {
  readonly #ctx: TimelineContext;
  readonly #clients: SseFanout<ChangeStreamEvents, Client>;
  #topologyTimer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: () => void;
  /** The store's epoch (fixed for its lifetime), part of every event id. */
  #epoch = '';

  constructor(ctx: TimelineContext) {
    this.#ctx = ctx;
    this.#clients = new SseFanout(ctx.sessions, {
      label: 'the event stream',
      max: ctx.config.maxEventStreams,
      kind: 'events',
      heartbeatMs: streamLimits.heartbeatMs,
      maxQueued: streamLimits.maxQueued,
      onOverflow: () => ctx.timeline.drop('subscriber_full', 'EventStream', { name: 'events/stream' }, 'sse'),
    });
    // The recorder belongs to the context: a switch brings a new one (and ends every client of the old).
    this.#unsubscribe = ctx.connection.bind((scope) =>
      scope.timeline.subscribe((events) => this.#publish(events)),
    );
  }

  #send(client: Client, event: TimelineEvent, json = () => serialize(event)): void {
    if (event.seq <= client.lastSeq || !client.test(event)) return;
    client.lastSeq = event.seq;
    client.stream.sendJson('change', json(), `${this.#epoch}:${event.seq}`);
  }

  #publish(events: TimelineEvent[]): void {
    // Serialized once however many clients take an entry, and not at all when none does: a first sync's past
    // passes here too, ~124 000 entries at 60 000 pods.
    const serialized: Serialized<TimelineEvent>[] = [];
    for (const client of this.#clients) {
      if (client.held) client.held.push(...events);
      else
        for (const [i, event] of events.entries())
          this.#send(client, event, () => (serialized[i] ??= serialize(event)));
    }
    this.#topologyTimer ??= setTimeout(() => {
      this.#topologyTimer = undefined;
      void readAuditSettings(this.#ctx).then(
        (audit) => {
          for (const client of this.#clients) this.#sendTopology(client, audit);
        },
        () => undefined,
      );
    }, streamLimits.topologyDebounceMs);
  }

  /** The graph as GET /api/topology gives it to this client (audit counts; certificates when it may read Secrets). */
  #sendTopology(client: Client, audit: AuditSettings): void {
    let topology: Topology;
    try {
      topology = this.#ctx.topology.get(this.#ctx, {
        namespaces: client.request.namespaces,
        expand: client.request.expand,
        audit,
        certificates: !client.request.hiddenKinds?.includes('Secret'),
      });
    } catch {
      return;
    }
    const { json, fingerprint } = this.#serialized(topology);
    if (fingerprint === client.lastTopology) return;
    client.lastTopology = fingerprint;
    client.stream.sendJson('topology', json);
  }

  /** One serialization and fingerprint per graph object (the memo hands out the same object until a rebuild). */
  readonly #topologyJson = new WeakMap<Topology, { json: Serialized<Topology>; fingerprint: string }>();
  #serialized(topology: Topology): { json: Serialized<Topology>; fingerprint: string } {
    let entry = this.#topologyJson.get(topology);
    if (!entry) {
      const json = serialize(topology);
      entry = { json, fingerprint: createHash('sha1').update(json).digest('base64') };
      this.#topologyJson.set(topology, entry);
    }
    return entry;
  }

  async open(reply: FastifyReply, request: StreamRequest): Promise<void> {
    const target = request.namespaces ? `namespaces=${request.namespaces.join(',')}` : 'all namespaces';
    // Registered (and holding live events) before anything is awaited, so nothing recorded meanwhile is lost.
    const client: Client = this.#clients.open(reply, target, (stream) => ({
      stream,
      request,
      test: () => false,
      lastSeq: 0,
      held: [],
    }));
    const stats = await this.#ctx.timeline.store.stats();
    this.#epoch = stats.epoch;
    const query = {
      ...presetQuery(request.preset, request.hiddenKinds),
      namespaces: request.namespaces,
      limit: streamLimits.replay,
    };
    client.test = matches(query);
    const [epoch, seq] = request.lastEventId?.split(':') ?? [];
    const since = Number(seq);
    const resumable =
      request.lastEventId !== undefined &&
      epoch === stats.epoch &&
      Number.isInteger(since) &&
      !(stats.count > 0 && since < stats.oldestSeq - 1);
    client.lastSeq = resumable ? since : stats.latestSeq;
    client.stream.send(
      'hello',
      { epoch: stats.epoch, latestSeq: stats.latestSeq },
      `${stats.epoch}:${client.lastSeq}`,
    );
    if (request.lastEventId !== undefined && !resumable) {
      client.stream.send('reset', {
        reason: 'the cursor is from another epoch or older than the oldest event kept',
        epoch: stats.epoch,
      });
    }
    this.#sendTopology(client, await readAuditSettings(this.#ctx));
    if (resumable) {
      // What was streamed while the store refused writes is not in it yet (ADR 0073). Read before the store is
      // asked: an entry stored meanwhile has left the backlog, but is then in the store.
      const unstored = this.#ctx.timeline.backlog(since);
      const stored = await this.#ctx.timeline.store.query({ ...query, sinceSeq: since, order: 'recorded' });
      for (const event of [...stored, ...unstored].sort((a, b) => a.seq - b.seq)) this.#send(client, event);
    }
    const held = client.held ?? [];
    client.held = undefined;
    for (const event of held) this.#send(client, event);
  }

  close(): void {
    this.#unsubscribe();
    if (this.#topologyTimer) clearTimeout(this.#topologyTimer);
    this.#clients.close();
  }
}
