import type { KubeObject } from '@binnacle/common';
import { AppError, notReady } from '@binnacle/common/server';
import type { KubeClient } from './client.ts';
import { type ApiResource, discover, resourceKey } from './discovery.ts';
import { type CacheEvent, Informer, type InformerState } from './informer.ts';
import { type TierName, tierOf, tierOrder } from './tiers.ts';

export type TierState = 'pending' | 'syncing' | 'synced';

export interface TierStatus {
  name: TierName;
  state: TierState;
  kinds: number;
  synced: number;
  startedAt?: string;
  syncedAt?: string;
  durationMs?: number;
}

export interface KindStatus {
  kind: string;
  group: string;
  resource: string;
  tier: TierName;
  state: InformerState;
  count: number;
  listDurationMs?: number;
  error?: string;
}

export interface InformerCacheOptions {
  namespace?: string;
  /** How many custom-resource kinds list at once. */
  customConcurrency?: number;
  log?: (level: 'info' | 'warn', message: string, detail?: Record<string, unknown>) => void;
}

type Listener = (event: CacheEvent) => void;
type SyncListener = (resource: ApiResource, objects: KubeObject[]) => void;

/**
 * The agent's view of the cluster: one informer per cached kind, started in tiers (core kinds first, then
 * the other built-in kinds, then every custom resource), with progress the health and CLI report. Custom
 * resource definitions added or removed while the agent runs start or stop their informers.
 */
export class InformerCache {
  readonly #client: KubeClient;
  readonly #options: InformerCacheOptions;
  readonly #informers = new Map<string, { informer: Informer; tier: TierName }>();
  readonly #listeners = new Set<Listener>();
  readonly #syncListeners = new Set<SyncListener>();
  readonly #tiers = new Map<TierName, TierStatus>(
    tierOrder.map((name) => [name, { name, state: 'pending', kinds: 0, synced: 0 }]),
  );
  #resources: ApiResource[] = [];
  #stopped = false;
  #version = 0;
  #rediscovery: ReturnType<typeof setTimeout> | undefined;

  constructor(client: KubeClient, options: InformerCacheOptions = {}) {
    this.#client = client;
    this.#options = options;
  }

  get resources(): readonly ApiResource[] {
    return this.#resources;
  }

  /** Discovers the API and starts the tiers; resolves when the core tier has synced. */
  async start(resources?: ApiResource[]): Promise<void> {
    this.#resources = resources ?? (await discover(this.#client));
    const byTier = new Map<TierName, ApiResource[]>(tierOrder.map((t) => [t, []]));
    for (const resource of this.#resources) {
      const tier = tierOf(resource);
      if (tier) byTier.get(tier)?.push(resource);
    }
    for (const [name, list] of byTier) this.#tier(name).kinds = list.length;
    await this.#runTier('core', byTier.get('core') ?? [], Number.POSITIVE_INFINITY);
    void this.#runTier('deferred', byTier.get('deferred') ?? [], Number.POSITIVE_INFINITY).then(() =>
      this.#runTier('custom', byTier.get('custom') ?? [], this.#options.customConcurrency ?? 6),
    );
  }

  #tier(name: TierName): TierStatus {
    return this.#tiers.get(name) as TierStatus;
  }

  async #runTier(name: TierName, resources: ApiResource[], concurrency: number): Promise<void> {
    const tier = this.#tier(name);
    tier.state = 'syncing';
    tier.startedAt = new Date().toISOString();
    const started = Date.now();
    const queue = [...resources];
    const worker = async () => {
      for (let next = queue.shift(); next && !this.#stopped; next = queue.shift()) {
        await this.#startInformer(next, name).settled;
        tier.synced += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, resources.length)) }, worker));
    tier.state = 'synced';
    tier.syncedAt = new Date().toISOString();
    tier.durationMs = Date.now() - started;
    this.#options.log?.('info', `${name} tier synced`, {
      kinds: resources.length,
      durationMs: tier.durationMs,
    });
  }

  #startInformer(resource: ApiResource, tier: TierName): Informer {
    const key = resourceKey(resource);
    const existing = this.#informers.get(key);
    if (existing) return existing.informer;
    const informer = new Informer(this.#client, resource, {
      namespace: this.#options.namespace,
      onEvent: (event) => this.#dispatch(event),
      onSynced: (r, objects) => {
        this.#version += 1;
        for (const listener of this.#syncListeners) listener(r, objects);
      },
      onError: (r, error) =>
        this.#options.log?.('warn', `informer for ${resourceKey(r)}: ${error.message}`, { code: error.code }),
    });
    this.#informers.set(key, { informer, tier });
    informer.start();
    return informer;
  }

  /** Grows with every change the cache sees: derived views (topology) are rebuilt only when it moved. */
  get version(): number {
    return this.#version;
  }

  #dispatch(event: CacheEvent): void {
    this.#version += 1;
    if (resourceKey(event.resource) === 'customresourcedefinitions.apiextensions.k8s.io' && !event.relist) {
      this.#scheduleRediscovery();
    }
    for (const listener of this.#listeners) listener(event);
  }

  /** CRDs changed: rediscover (debounced) and start or stop custom informers to match. */
  #scheduleRediscovery(): void {
    if (this.#rediscovery || this.#stopped || this.#tier('custom').state === 'pending') return;
    this.#rediscovery = setTimeout(() => {
      this.#rediscovery = undefined;
      void this.#rediscover();
    }, 1000);
  }

  async #rediscover(): Promise<void> {
    try {
      const resources = await discover(this.#client);
      this.#resources = resources;
      const wanted = new Set(resources.filter((r) => tierOf(r) === 'custom').map(resourceKey));
      for (const [key, entry] of this.#informers) {
        if (entry.tier === 'custom' && !wanted.has(key)) {
          entry.informer.stop();
          this.#informers.delete(key);
        }
      }
      for (const resource of resources) {
        if (tierOf(resource) === 'custom' && !this.#informers.has(resourceKey(resource))) {
          this.#startInformer(resource, 'custom');
        }
      }
      this.#tier('custom').kinds = wanted.size;
      this.#tier('custom').synced = [...this.#informers.values()].filter((e) => e.tier === 'custom').length;
    } catch (error) {
      this.#options.log?.('warn', `rediscovery after a CRD change failed: ${(error as Error).message}`);
    }
  }

  /** Subscribes to every add, update and delete; returns the unsubscribe function. */
  onEvent(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called with the objects of each kind when its first LIST lands (what existed before the agent watched). */
  onSynced(listener: SyncListener): () => void {
    this.#syncListeners.add(listener);
    return () => this.#syncListeners.delete(listener);
  }

  tiers(): TierStatus[] {
    return tierOrder.map((name) => ({ ...this.#tier(name) }));
  }

  kinds(): KindStatus[] {
    return [...this.#informers.values()].map(({ informer, tier }) => ({
      kind: informer.resource.kind,
      group: informer.resource.group,
      resource: informer.resource.plural,
      tier,
      state: informer.state,
      count: informer.size,
      listDurationMs: informer.listDurationMs,
      error: informer.lastError?.message,
    }));
  }

  /** True when the agent caches this kind (or will, once its tier starts). */
  caches(resource: ApiResource): boolean {
    return tierOf(resource) !== undefined;
  }

  informer(resource: ApiResource): Informer | undefined {
    return this.#informers.get(resourceKey(resource))?.informer;
  }

  /**
   * The informer of a kind, once it can answer. A kind still loading is a 503 `not_ready` — never an empty
   * list that looks like truth; a kind the agent may not list is a 403.
   */
  #readable(resource: ApiResource): Informer {
    const informer = this.informer(resource);
    if (!informer || (!informer.synced && (informer.state === 'pending' || informer.state === 'syncing'))) {
      const tier = tierOf(resource) ?? 'core';
      const status = this.#tier(tier);
      throw notReady(
        `${resource.plural} are still loading (${tier} tier ${status.synced}/${status.kinds} kinds); retry shortly`,
      );
    }
    if (!informer.synced && informer.lastError) {
      throw new AppError(informer.lastError.code, informer.lastError.message);
    }
    return informer;
  }

  list(resource: ApiResource, namespace?: string): KubeObject[] {
    return this.#readable(resource).list(namespace);
  }

  get(resource: ApiResource, name: string, namespace?: string): KubeObject | undefined {
    return this.#readable(resource).get(name, namespace);
  }

  /** Cached objects of a kind if it is synced, else an empty list (for aggregate views that report what loads). */
  peek(resource: ApiResource | undefined): KubeObject[] {
    const informer = resource ? this.informer(resource) : undefined;
    return informer?.synced ? informer.list() : [];
  }

  objectCount(): number {
    let total = 0;
    for (const { informer } of this.#informers.values()) total += informer.size;
    return total;
  }

  /** The API server answers again: every informer waiting to retry retries now (see `Informer.resume`). */
  resume(): void {
    for (const { informer } of this.#informers.values()) informer.resume();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#rediscovery) clearTimeout(this.#rediscovery);
    for (const { informer } of this.#informers.values()) informer.stop();
  }
}
