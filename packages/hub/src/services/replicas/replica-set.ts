import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { redisLocation } from '../../config/replica-config.ts';

/** How long a replica's claim on a tunnel lives in Redis unless renewed: a dead replica's claims lapse. */
const claimTtlSeconds = 30;
const renewEveryMs = 10_000;
const connectTimeoutMs = 10_000;
const channel = 'bnc:events';
const tunnelKey = (clusterId: string) => `bnc:tunnel:${clusterId}`;

/** Deletes a claim only if this replica still holds it: the agent may already have landed elsewhere. */
const releaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

type Event =
  | { from: string; kind: 'change' }
  | { from: string; kind: 'disconnect'; clusterId: string; reason: string };

export interface ReplicaEvents {
  /** Another replica changed access (sign-out, removal, role change …). */
  change(): void;
  /** Another replica rotated or deleted a cluster's token: its tunnel must close wherever it is. */
  disconnect(clusterId: string, reason: string): void;
}

/**
 * This hub process as one of several replicas (docs/scaling.md): which replica holds each cluster's tunnel
 * (`bnc:tunnel:<cluster>` → the holder's replica URL, renewed every 10 s, lapsing after 30 s), and the
 * events replicas tell each other on one channel. PostgreSQL stays the source of truth for everything else;
 * Redis holds only what a restart may lose.
 */
export class ReplicaSet {
  readonly id = randomUUID();
  readonly url: string;
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #log: FastifyBaseLogger;
  readonly #claimed = new Set<string>();
  #renewTimer: NodeJS.Timeout | undefined;

  private constructor(redis: Redis, subscriber: Redis, url: string, log: FastifyBaseLogger) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.url = url;
    this.#log = log;
  }

  /** Connects (both the command and the subscriber connection), or fails naming the Redis it could not reach. */
  static async connect(options: {
    redisUrl: string;
    replicaUrl: string;
    log: FastifyBaseLogger;
    events: ReplicaEvents;
  }): Promise<ReplicaSet> {
    // Commands fail fast while Redis is away (no offline queue): a request must not hang on the directory.
    const settings = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
    const redis = new Redis(options.redisUrl, settings);
    const subscriber = new Redis(options.redisUrl, { ...settings, enableOfflineQueue: true });
    for (const client of [redis, subscriber])
      client.on('error', (error: Error) =>
        options.log.warn({ err: { message: error.message } }, 'Redis connection failed; retrying'),
      );
    const set = new ReplicaSet(redis, subscriber, options.replicaUrl, options.log);
    try {
      await withTimeout(Promise.all([redis.connect(), subscriber.connect()]), connectTimeoutMs);
      await subscriber.subscribe(channel);
    } catch (error) {
      redis.disconnect();
      subscriber.disconnect();
      throw new Error(
        `cannot reach Redis at ${redisLocation(options.redisUrl)}: ${(error as Error).message}`,
      );
    }
    subscriber.on('message', (_channel: string, message: string) => set.#heard(message, options.events));
    // A reconnected Redis may have lost every claim (restart without persistence): claim again at once.
    redis.on('ready', () => void set.#renew());
    set.#renewTimer = setInterval(() => void set.#renew(), renewEveryMs);
    set.#renewTimer.unref();
    return set;
  }

  /** Records that this replica holds the cluster's tunnel now (a newer claim elsewhere replaces it). */
  async claim(clusterId: string): Promise<void> {
    this.#claimed.add(clusterId);
    await this.#redis.set(tunnelKey(clusterId), this.url, 'EX', claimTtlSeconds).catch(this.#warn('claim'));
  }

  /** The tunnel closed here: the claim goes unless another replica has claimed the cluster since. */
  async release(clusterId: string): Promise<void> {
    this.#claimed.delete(clusterId);
    await this.#redis.eval(releaseScript, 1, tunnelKey(clusterId), this.url).catch(this.#warn('release'));
  }

  /** The replica URL that holds the cluster's tunnel, if any replica does. */
  async holder(clusterId: string): Promise<string | undefined> {
    return (await this.#redis.get(tunnelKey(clusterId))) ?? undefined;
  }

  /** The clusters among these whose tunnel some replica holds. */
  async held(clusterIds: string[]): Promise<Set<string>> {
    if (clusterIds.length === 0) return new Set();
    const urls = await this.#redis.mget(clusterIds.map(tunnelKey));
    return new Set(clusterIds.filter((_id, i) => urls[i]));
  }

  announceChange(): void {
    this.#publish({ from: this.id, kind: 'change' });
  }

  announceDisconnect(clusterId: string, reason: string): void {
    this.#publish({ from: this.id, kind: 'disconnect', clusterId, reason });
  }

  /** The shared command connection (rate limits use it). */
  get redis(): Redis {
    return this.#redis;
  }

  async close(): Promise<void> {
    clearInterval(this.#renewTimer);
    const claims = [...this.#claimed];
    await Promise.all(claims.map((id) => this.release(id)));
    this.#subscriber.disconnect();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  async #renew(): Promise<void> {
    if (this.#claimed.size === 0) return;
    const batch = this.#redis.multi();
    for (const id of this.#claimed) batch.set(tunnelKey(id), this.url, 'EX', claimTtlSeconds);
    await batch.exec().catch(this.#warn('renew the tunnel claims'));
  }

  #publish(event: Event): void {
    this.#redis.publish(channel, JSON.stringify(event)).catch(this.#warn('publish an event'));
  }

  #heard(message: string, events: ReplicaEvents): void {
    let event: Event;
    try {
      event = JSON.parse(message) as Event;
    } catch {
      return;
    }
    if (event.from === this.id) return;
    if (event.kind === 'change') events.change();
    else if (event.kind === 'disconnect') events.disconnect(event.clusterId, event.reason);
  }

  #warn(what: string) {
    return (error: unknown) => {
      this.#log.warn({ err: { message: (error as Error).message } }, `Redis: could not ${what}`);
      return null;
    };
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
