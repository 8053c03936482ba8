import { backoffDelay, type KubeObject } from '@binnacle/common';
import { AppError, notReady } from '@binnacle/common/server';
import { AccessReviewer } from './access-review.ts';
import type { KubeClient } from './client.ts';
import { type ApiResource, discover, resourceKey } from './discovery.ts';
import { condition } from './health.ts';
import { type CacheEvent, Informer, type InformerState } from './informer.ts';
import { NamespaceGate } from './namespace-gate.ts';
import { type KindInformer, NamespaceSetInformer } from './namespace-set-informer.ts';
import { type TierName, tierOf, tierOrder } from './tiers.ts';

const crdsKey = 'customresourcedefinitions.apiextensions.k8s.io';
/** How long a CRD change waits for the discovery it asks for, so that a burst of changes (a chart's CRDs) asks once. */
const rediscoveryDebounceMs = 1000;
/**
 * Discoveries in a row that may miss an established CRD before the cache stops looking again (about a minute on
 * the back-off): the API server publishes a new CRD's kind a moment after it establishes it.
 */
const maxDiscoveryLags = 6;

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
  /**
   * Watch only these namespaces (--namespace): one LIST and WATCH per namespace for namespaced kinds, and
   * cluster-scoped kinds only where the agent may list them. Undefined: the whole cluster, unless the agent's
   * identity may not list pods cluster-wide — then the namespaces it may read are discovered (ADR 0121).
   */
  namespaces?: readonly string[];
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
  readonly #informers = new Map<string, { informer: KindInformer; tier: TierName }>();
  readonly #selfAccess: AccessReviewer;
  /** The namespaces watched, once `start` has settled them; undefined: the whole cluster. */
  #namespaces?: readonly string[];
  /** Set once the namespaces are: what asks before each kind's first LIST. */
  #gate?: NamespaceGate;
  readonly #listeners = new Set<Listener>();
  readonly #syncListeners = new Set<SyncListener>();
  readonly #tiers = new Map<TierName, TierStatus>(
    tierOrder.map((name) => [name, { name, state: 'pending', kinds: 0, synced: 0 }]),
  );
  #resources: ApiResource[] = [];
  #stopped = false;
  #version = 0;
  #rediscovery: ReturnType<typeof setTimeout> | undefined;
  #rediscovering = false;
  /** A CRD changed while the custom tier was not synced yet or a rediscovery was running: one more is due. */
  #rediscoveryDue = false;
  /** Rediscoveries that failed in a row: the next waits on the retry back-off. */
  #rediscoveryFailures = 0;
  /** Rediscoveries in a row that succeeded without listing every established CRD's kind. */
  #discoveryLags = 0;

  constructor(client: KubeClient, options: InformerCacheOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#selfAccess = new AccessReviewer(client);
    this.#namespaces = options.namespaces;
  }

  /** The namespaces the cache watches (configured or discovered), or undefined for the whole cluster. */
  get namespaces(): readonly string[] | undefined {
    return this.#namespaces;
  }

  get resources(): readonly ApiResource[] {
    return this.#resources;
  }

  /**
   * Discovers the API and starts the tiers; resolves when the core tier has synced. `discovered`: the namespaces
   * to watch found at connection, when none were configured (see `readableNamespaces`).
   */
  async start(resources?: ApiResource[], discovered?: readonly string[]): Promise<void> {
    this.#resources = resources ?? (await discover(this.#client));
    this.#namespaces ??= discovered;
    if (this.#namespaces) this.#gate = new NamespaceGate(this.#client, this.#selfAccess, this.#namespaces);
    const byTier = new Map<TierName, ApiResource[]>(tierOrder.map((t) => [t, []]));
    for (const resource of this.#resources) {
      const tier = tierOf(resource);
      if (tier) byTier.get(tier)?.push(resource);
    }
    for (const [name, list] of byTier) this.#tier(name).kinds = list.length;
    await this.#runTier('core', byTier.get('core') ?? [], Number.POSITIVE_INFINITY);
    void this.#runTier('deferred', byTier.get('deferred') ?? [], Number.POSITIVE_INFINITY)
      .then(() => this.#runTier('custom', byTier.get('custom') ?? [], this.#options.customConcurrency ?? 6))
      .then(() => {
        // A CRD created after the discovery above is in the CRD informer's first LIST, which is no event.
        if (this.#rediscoveryDue || this.#undiscoveredCrd(this.#resources)) this.#scheduleRediscovery();
      });
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

  #startInformer(resource: ApiResource, tier: TierName): KindInformer {
    const key = resourceKey(resource);
    const existing = this.#informers.get(key);
    if (existing) return existing.informer;
    const options = {
      onEvent: (event: CacheEvent) => this.#dispatch(event),
      onSynced: (r: ApiResource, objects: KubeObject[]) => {
        this.#version += 1;
        for (const listener of this.#syncListeners) listener(r, objects);
      },
      onError: (r: ApiResource, error: AppError) =>
        this.#options.log?.('warn', `informer for ${resourceKey(r)}: ${error.message}`, { code: error.code }),
    };
    const gate = this.#gate;
    if (gate && resource.namespaced) {
      const informer = new NamespaceSetInformer(this.#client, resource, gate.namespaces, options);
      this.#informers.set(key, { informer, tier });
      void gate.startNamespaced(informer);
      return informer;
    }
    const informer = new Informer(this.#client, resource, options);
    this.#informers.set(key, { informer, tier });
    if (gate) void gate.startClusterScoped(informer);
    else informer.start();
    return informer;
  }

  /** Grows with every change the cache sees: derived views (topology) are rebuilt only when it moved. */
  get version(): number {
    return this.#version;
  }

  #dispatch(event: CacheEvent): void {
    this.#version += 1;
    // A relist's events count too: they are the changes the watch missed, e.g. a CRD added during an outage.
    if (resourceKey(event.resource) === crdsKey) this.#scheduleRediscovery();
    for (const listener of this.#listeners) listener(event);
  }

  /**
   * CRDs changed: rediscover (debounced) and start or stop custom informers to match. Until the custom tier has
   * synced, and while a rediscovery runs, the change is remembered and rediscovered after.
   */
  #scheduleRediscovery(delayMs = rediscoveryDebounceMs): void {
    if (this.#stopped || this.#rediscovery) return;
    if (this.#rediscovering || this.#tier('custom').state !== 'synced') {
      this.#rediscoveryDue = true;
      return;
    }
    this.#rediscovery = setTimeout(() => {
      this.#rediscovery = undefined;
      this.#rediscoveryDue = false;
      void this.#rediscover();
    }, delayMs);
  }

  /**
   * A rediscovery that fails is retried with back-off until one succeeds or the cache stops (at once when the
   * API server answers again, see `resume`): otherwise a CRD added meanwhile would stay unwatched until the
   * agent restarts. Logged when it first fails and when it succeeds again, not at every retry. One that succeeds
   * without the kind of an established CRD looks again, a few times (see `maxDiscoveryLags`; ADR 0109).
   */
  async #rediscover(): Promise<void> {
    this.#rediscovering = true;
    let resources: ApiResource[];
    try {
      resources = await discover(this.#client);
    } catch (error) {
      this.#rediscovering = false;
      if (this.#stopped) return;
      if (this.#rediscoveryFailures === 0)
        this.#options.log?.(
          'warn',
          `rediscovery after a CRD change failed, retrying with back-off: ${(error as Error).message}`,
        );
      this.#scheduleRediscovery(backoffDelay(this.#rediscoveryFailures));
      this.#rediscoveryFailures += 1;
      return;
    }
    this.#rediscovering = false;
    if (this.#stopped) return;
    if (this.#rediscoveryFailures > 0)
      this.#options.log?.('info', 'rediscovery after a CRD change succeeded', {
        failedAttempts: this.#rediscoveryFailures,
      });
    this.#rediscoveryFailures = 0;
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
    if (this.#rediscoveryDue) {
      this.#discoveryLags = 0;
      this.#scheduleRediscovery();
    } else if (this.#discoveryLags < maxDiscoveryLags && this.#undiscoveredCrd(resources)) {
      this.#scheduleRediscovery(backoffDelay(this.#discoveryLags));
      this.#discoveryLags += 1;
    } else this.#discoveryLags = 0;
  }

  /**
   * Whether the CRD informer holds an established CRD with a served version whose kind `resources` (a discovery)
   * does not list. A CRD's name is its kind's `plural.group`.
   */
  #undiscoveredCrd(resources: readonly ApiResource[]): boolean {
    const crds = this.#informers.get(crdsKey)?.informer;
    if (!crds?.synced) return false;
    const discovered = new Set(resources.map(resourceKey));
    return crds
      .list()
      .some(
        (crd) =>
          !discovered.has(crd.metadata?.name ?? '') &&
          condition(crd, 'Established') === 'True' &&
          ((crd.spec?.versions as { served?: boolean }[] | undefined) ?? []).some((v) => v.served),
      );
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

  informer(resource: ApiResource): KindInformer | undefined {
    return this.#informers.get(resourceKey(resource))?.informer;
  }

  /**
   * The informer of a kind, once it can answer. A kind still loading is a 503 `not_ready` — never an empty
   * list that looks like truth; a kind the agent may not list is a 403. A kind whose list failed answers that
   * failure until a list succeeds, also while it tries again (its state is then `syncing` for a moment).
   */
  #readable(resource: ApiResource): KindInformer {
    const informer = this.informer(resource);
    if (informer && !informer.synced && informer.lastError) {
      throw new AppError(informer.lastError.code, informer.lastError.message);
    }
    if (!informer || (!informer.synced && (informer.state === 'pending' || informer.state === 'syncing'))) {
      const tier = tierOf(resource) ?? 'core';
      const status = this.#tier(tier);
      throw notReady(
        `${resource.plural} are still loading (${tier} tier ${status.synced}/${status.kinds} kinds); retry shortly`,
      );
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

  /**
   * The API server answers again: every informer waiting to retry retries now (see `Informer.resume`), and so
   * does a rediscovery waiting on its back-off.
   */
  resume(): void {
    for (const { informer } of this.#informers.values()) informer.resume();
    if (this.#rediscoveryFailures > 0 && this.#rediscovery) {
      clearTimeout(this.#rediscovery);
      this.#rediscovery = undefined;
      this.#scheduleRediscovery(0);
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#rediscovery) clearTimeout(this.#rediscovery);
    for (const { informer } of this.#informers.values()) informer.stop();
  }
}
