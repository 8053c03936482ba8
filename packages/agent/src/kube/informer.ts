import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, type KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { KubeClient } from './client.ts';
import { type ApiResource, apiVersionOf, collectionPath } from './discovery.ts';
import { cacheForm, type KubeList, objectKey } from './objects.ts';

export type InformerState = 'pending' | 'syncing' | 'synced' | 'forbidden' | 'error';

export interface CacheEvent {
  type: 'added' | 'updated' | 'deleted';
  resource: ApiResource;
  object: KubeObject;
  /** The previous version, for updates and deletes. */
  old?: KubeObject;
  /** True for events replayed by a relist (the watch missed them), false for live watch events. */
  relist: boolean;
}

export interface InformerOptions {
  /** Watch only this namespace (namespaced kinds); cluster-wide otherwise. */
  namespace?: string;
  onEvent: (event: CacheEvent) => void;
  /** Called once, when the first LIST has landed, with everything it found. */
  onSynced?: (resource: ApiResource, objects: KubeObject[]) => void;
  onError?: (resource: ApiResource, error: AppError) => void;
  pageSize?: number;
}

class Gone extends Error {}

/** A LIST page, and the next one if there is one, already asked for. */
interface FetchedPage {
  list: KubeList;
  next?: Promise<FetchedPage>;
}

/** The continue token in a list's metadata, which precedes its items. */
const continuePattern = /"continue":"([^"]*)"/;
const metadataBytes = 4096;

/**
 * The cache of one kind: a paginated LIST, then a WATCH from its resourceVersion, for as long as the agent
 * runs. No periodic resync. A 410 Gone (the watch fell too far behind) relists and replays the difference as
 * events; any other failure retries with jittered backoff while the cached data keeps being served, or at once
 * when the cluster says the API server is back (`resume`).
 */
export class Informer {
  readonly resource: ApiResource;
  state: InformerState = 'pending';
  lastError?: AppError;
  syncedAt?: Date;
  listDurationMs?: number;
  readonly #client: KubeClient;
  readonly #options: InformerOptions;
  readonly #store = new Map<string, KubeObject>();
  readonly #abort = new AbortController();
  #resourceVersion = '';
  /** Failures in a row since the last successful LIST: the back-off's attempt. */
  #failures = 0;
  #wake?: AbortController;
  #firstSync: { promise: Promise<void>; resolve: () => void };

  constructor(client: KubeClient, resource: ApiResource, options: InformerOptions) {
    this.#client = client;
    this.resource = resource;
    this.#options = options;
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#firstSync = { promise, resolve };
  }

  get size(): number {
    return this.#store.size;
  }

  /** Settles when the first LIST has landed or failed for a reason retrying will not fix soon. */
  get settled(): Promise<void> {
    return this.#firstSync.promise;
  }

  get synced(): boolean {
    return this.syncedAt !== undefined;
  }

  list(namespace?: string): KubeObject[] {
    const all = [...this.#store.values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata?.namespace === namespace);
  }

  get(name: string, namespace?: string): KubeObject | undefined {
    return this.#store.get(namespace && this.resource.namespaced ? `${namespace}/${name}` : name);
  }

  start(): void {
    void this.#run();
  }

  /**
   * Settles as refused without asking the API server: a kind the agent's identity may not list where it watches
   * (ADR 0121). The kind reads as 403 with `error`'s words.
   */
  refuse(error: AppError): void {
    this.state = 'forbidden';
    this.lastError = error;
    this.#firstSync.resolve();
  }

  /**
   * Settles as synced with objects the agent knows without a LIST it may not make: the Namespace objects of the
   * namespaces it watches when it may not list namespaces (ADR 0121).
   */
  seed(objects: KubeObject[]): void {
    for (const object of objects) this.#store.set(objectKey(this.#normalize(object)), object);
    this.state = 'synced';
    this.syncedAt = new Date();
    this.listDurationMs = 0;
    this.#options.onSynced?.(this.resource, [...this.#store.values()]);
    this.#firstSync.resolve();
  }

  stop(): void {
    this.#abort.abort();
    this.#firstSync.resolve();
  }

  get #path(): string {
    return collectionPath(this.resource, this.resource.namespaced ? this.#options.namespace : undefined);
  }

  #normalize(object: KubeObject): KubeObject {
    object.apiVersion ??= apiVersionOf(this.resource);
    object.kind ??= this.resource.kind;
    return cacheForm(this.resource.group, object);
  }

  async #run(): Promise<void> {
    let generation = this.#client.generation;
    while (!this.#abort.signal.aborted) {
      try {
        if (!this.synced) this.state = 'syncing';
        generation = this.#client.generation;
        await this.#relist();
        this.#failures = 0;
        for (;;) {
          const started = Date.now();
          generation = this.#client.generation;
          await this.#watch();
          // A watch the server ends at once (e.g. a proxy in between) must not become a busy loop.
          if (Date.now() - started < 1000) await sleep(1000, undefined, { signal: this.#abort.signal });
        }
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        if (error instanceof Gone || (error instanceof AppError && error.code === 'resource_version_expired'))
          continue;
        const appError =
          error instanceof AppError ? error : new AppError('cluster_error', String(error), { cause: error });
        this.lastError = appError;
        if (!this.synced) {
          this.state = appError.code === 'forbidden' || appError.code === 'not_found' ? 'forbidden' : 'error';
          this.#firstSync.resolve();
        }
        this.#options.onError?.(this.resource, appError);
        await this.#pause(this.#retryDelay(appError, generation !== this.#client.generation));
      }
    }
  }

  /**
   * RBAC and CRDs can change: a refusal is retried slowly. A request that failed because the client replaced
   * its connections (ADR 0050) is retried at once, but only as the first failure after a success, so a server
   * that breaks every new connection is retried on the back-off like any other failure.
   */
  #retryDelay(error: AppError, replaced: boolean): number {
    if (error.code === 'forbidden' || error.code === 'not_found') return 60_000;
    const attempt = this.#failures++;
    return replaced && attempt === 0 ? 0 : backoffDelay(attempt);
  }

  /** Waits before a retry; `resume` ends the wait early. */
  async #pause(ms: number): Promise<void> {
    if (ms <= 0) return;
    const wake = new AbortController();
    this.#wake = wake;
    await sleep(ms, undefined, { signal: AbortSignal.any([this.#abort.signal, wake.signal]) }).catch(
      () => undefined,
    );
    this.#wake = undefined;
  }

  /**
   * The API server answers again (the cluster's probe saw it): retry now and from the start of the back-off,
   * instead of at the end of a wait that grew while it was away. Refusals (RBAC, a missing CRD) keep their wait.
   */
  resume(): void {
    if (this.lastError?.code === 'forbidden' || this.lastError?.code === 'not_found') return;
    this.#failures = 0;
    this.#wake?.abort();
  }

  /**
   * One LIST page, read as it streams. `onContinue` gets the page's continue token as soon as the list's
   * metadata has arrived — the API server writes it before the items — so the next page is being prepared while
   * this one downloads and parses.
   */
  async #listPage(
    token: string | undefined,
    onContinue: (token: string | undefined) => void,
  ): Promise<KubeList> {
    const { body } = await this.#client.stream({
      path: this.#path,
      // Pages from etcd rather than the watch cache (resourceVersion=0): the watch cache ignores `limit` and
      // answers 10 000 pods as one 35 MB body, no sooner, with the agent's memory peaking to hold it.
      query: { limit: this.#options.pageSize ?? 500, continue: token },
      signal: this.#abort.signal,
      timeoutMs: 60_000,
    });
    const decoder = new StringDecoder('utf8');
    let text = '';
    let told = false;
    // The metadata is a few hundred bytes; past this, stop looking and take the token from the parsed page.
    let looking = true;
    for await (const chunk of body) {
      text += decoder.write(chunk as Buffer);
      if (!looking) continue;
      const items = text.slice(0, metadataBytes).indexOf('"items":');
      if (items >= 0) {
        told = true;
        onContinue(continuePattern.exec(text.slice(0, items))?.[1] || undefined);
      }
      looking = !told && text.length < metadataBytes;
    }
    const page = JSON.parse(text + decoder.end()) as KubeList;
    if (!told) onContinue(page.metadata?.continue || undefined);
    return page;
  }

  async #relist(): Promise<void> {
    const started = Date.now();
    const fresh = new Map<string, KubeObject>();
    let resourceVersion = '';
    const fetch = (token: string | undefined): Promise<FetchedPage> => {
      let next: Promise<FetchedPage> | undefined;
      const page = this.#listPage(token, (continueToken) => {
        if (!continueToken) return;
        next = fetch(continueToken);
        // Awaited in turn; if this page fails first, nobody will, and that must not be an unhandled rejection.
        next.catch(() => undefined);
      });
      return page.then((list) => ({ list, next }));
    };
    let pending: Promise<FetchedPage> | undefined = fetch(undefined);
    while (pending) {
      const { list, next }: FetchedPage = await pending;
      for (const item of list.items ?? []) {
        const object = this.#normalize(item);
        fresh.set(objectKey(object), object);
      }
      resourceVersion = list.metadata?.resourceVersion ?? resourceVersion;
      pending = next;
    }
    this.listDurationMs = Date.now() - started;
    const replay = this.synced;
    const previous = new Map(this.#store);
    this.#store.clear();
    for (const [key, object] of fresh) this.#store.set(key, object);
    this.#resourceVersion = resourceVersion;
    if (replay) {
      for (const [key, object] of fresh) {
        const old = previous.get(key);
        if (!old) this.#emit('added', object, undefined, true);
        else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion)
          this.#emit('updated', object, old, true);
      }
      for (const [key, old] of previous) if (!fresh.has(key)) this.#emit('deleted', old, old, true);
    }
    this.state = 'synced';
    this.lastError = undefined;
    if (!replay) this.#options.onSynced?.(this.resource, [...fresh.values()]);
    this.syncedAt = new Date();
    this.#firstSync.resolve();
  }

  #emit(type: CacheEvent['type'], object: KubeObject, old: KubeObject | undefined, relist: boolean): void {
    this.#options.onEvent({ type, resource: this.resource, object, old, relist });
  }

  async #watch(): Promise<void> {
    const { body } = await this.#client.stream({
      path: this.#path,
      query: {
        watch: 1,
        allowWatchBookmarks: true,
        resourceVersion: this.#resourceVersion,
        // The server ends the watch after this; the loop resumes from the last resourceVersion.
        timeoutSeconds: 240 + Math.floor(Math.random() * 120),
      },
      signal: this.#abort.signal,
    });
    const decoder = new StringDecoder('utf8');
    let buffer = '';
    for await (const chunk of body) {
      buffer += decoder.write(chunk as Buffer);
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) this.#apply(JSON.parse(line) as { type: string; object: KubeObject & { code?: number } });
        newline = buffer.indexOf('\n');
      }
    }
  }

  #apply(event: { type: string; object: KubeObject & { code?: number; message?: string } }): void {
    const rv = event.object.metadata?.resourceVersion;
    switch (event.type) {
      case 'BOOKMARK':
        if (rv) this.#resourceVersion = rv;
        return;
      case 'ERROR':
        if (event.object.code === 410) throw new Gone();
        throw new AppError(
          'cluster_error',
          `watch of ${this.resource.plural} failed: ${event.object.message ?? 'unknown'}`,
        );
      case 'ADDED':
      case 'MODIFIED': {
        const object = this.#normalize(event.object);
        const key = objectKey(object);
        const old = this.#store.get(key);
        this.#store.set(key, object);
        if (rv) this.#resourceVersion = rv;
        this.#emit(old ? 'updated' : 'added', object, old, false);
        return;
      }
      case 'DELETED': {
        const object = this.#normalize(event.object);
        const key = objectKey(object);
        const old = this.#store.get(key);
        this.#store.delete(key);
        if (rv) this.#resourceVersion = rv;
        this.#emit('deleted', object, old, false);
        return;
      }
    }
  }
}
