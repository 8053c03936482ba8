import type { KubeObject } from '@binnacle/common';
import type { AppError } from '@binnacle/common/server';
import type { KubeClient } from './client.ts';
import type { ApiResource } from './discovery.ts';
import { Informer, type InformerOptions, type InformerState } from './informer.ts';

/** What the cache reads of a kind's informer, whether it watches one collection or several. */
export type KindInformer = Pick<
  Informer,
  | 'resource'
  | 'state'
  | 'lastError'
  | 'syncedAt'
  | 'listDurationMs'
  | 'size'
  | 'settled'
  | 'synced'
  | 'list'
  | 'get'
  | 'start'
  | 'stop'
  | 'resume'
>;

/**
 * A namespaced kind watched in several namespaces, one LIST and WATCH per namespace and never one across the
 * cluster (ADR 0121). It reads as one informer: synced when every namespace is, its first sync reported once
 * with every namespace's objects, a refusal in any namespace its refusal.
 */
export class NamespaceSetInformer implements KindInformer {
  readonly resource: ApiResource;
  readonly #parts: Map<string, Informer>;
  /** Namespaces whose first LIST has not landed yet; their objects so far. */
  readonly #waiting: Set<string>;
  readonly #found: KubeObject[] = [];
  readonly #onSynced: InformerOptions['onSynced'];

  constructor(
    client: KubeClient,
    resource: ApiResource,
    namespaces: readonly string[],
    options: InformerOptions,
  ) {
    this.resource = resource;
    this.#waiting = new Set(namespaces);
    this.#onSynced = options.onSynced;
    this.#parts = new Map(
      namespaces.map((namespace) => [
        namespace,
        new Informer(client, resource, {
          ...options,
          namespace,
          onSynced: (_synced, objects) => {
            this.#found.push(...objects);
            this.#landed(namespace);
          },
        }),
      ]),
    );
  }

  #landed(namespace: string): void {
    if (!this.#waiting.delete(namespace)) return;
    if (this.#waiting.size === 0) this.#onSynced?.(this.resource, this.#found);
  }

  /**
   * Starts the namespaces where the agent may list the kind and leaves the others out, never asked; with none,
   * the kind reads as refused with `refusal`.
   */
  startIn(allowed: ReadonlySet<string>, refusal: AppError): void {
    if (![...this.#parts.keys()].some((namespace) => allowed.has(namespace))) {
      for (const part of this.#parts.values()) part.refuse(refusal);
      return;
    }
    for (const [namespace, part] of this.#parts) {
      if (allowed.has(namespace)) continue;
      part.refuse(refusal);
      this.#parts.delete(namespace);
      this.#landed(namespace);
    }
    this.start();
  }

  get #all(): Informer[] {
    return [...this.#parts.values()];
  }

  get state(): InformerState {
    const states = this.#all.map((part) => part.state);
    if (states.every((state) => state === 'synced')) return 'synced';
    for (const state of ['forbidden', 'error', 'syncing', 'pending'] as const)
      if (states.includes(state)) return state;
    return 'pending';
  }

  get lastError(): AppError | undefined {
    return this.#all.find((part) => part.lastError)?.lastError;
  }

  get syncedAt(): Date | undefined {
    if (!this.synced) return undefined;
    return new Date(Math.max(...this.#all.map((part) => part.syncedAt?.getTime() ?? 0)));
  }

  get listDurationMs(): number | undefined {
    const durations = this.#all.map((part) => part.listDurationMs ?? 0);
    return this.synced ? Math.max(...durations) : undefined;
  }

  get size(): number {
    return this.#all.reduce((sum, part) => sum + part.size, 0);
  }

  get settled(): Promise<void> {
    return Promise.all(this.#all.map((part) => part.settled)).then(() => undefined);
  }

  get synced(): boolean {
    return this.#all.every((part) => part.synced);
  }

  list(namespace?: string): KubeObject[] {
    if (namespace !== undefined) return this.#parts.get(namespace)?.list() ?? [];
    return this.#all.flatMap((part) => part.list());
  }

  get(name: string, namespace?: string): KubeObject | undefined {
    return namespace === undefined ? undefined : this.#parts.get(namespace)?.get(name, namespace);
  }

  start(): void {
    for (const part of this.#all) part.start();
  }

  stop(): void {
    for (const part of this.#all) part.stop();
  }

  resume(): void {
    for (const part of this.#all) part.resume();
  }
}
