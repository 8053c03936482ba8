import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, probeSchedule } from '@binnacle/common';
import { AppError, notReady } from '@binnacle/common/server';
import { AccessReviewer } from './access-review.ts';
import { type Impersonation, KubeClient } from './client.ts';
import { type ApiResource, discover, resolveKind } from './discovery.ts';
import { InformerCache, type InformerCacheOptions } from './informer-cache.ts';
import type { ClusterTarget } from './kubeconfig.ts';
import { readableNamespaces } from './readable-namespaces.ts';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

/**
 * How a connected agent notices that its API server went away: a probe this often, answered within `timeoutMs`,
 * and this many failed in a row before the connection is reported `disconnected` (one slow answer under load is
 * no outage). While disconnected it probes on the probe schedule instead (ADR 0050).
 */
export const livenessProbe = { intervalMs: 5_000, timeoutMs: 3_000, failures: 2 };

const asAppError = (error: unknown) =>
  error instanceof AppError ? error : new AppError('cluster_unreachable', String(error));

export interface ServerVersion {
  gitVersion: string;
  major: string;
  minor: string;
  platform?: string;
}

/**
 * One cluster the agent serves: its client, discovery and informer cache, and the state of the connection.
 * Everything context-scoped hangs off this object, so switching context means stopping one and opening another.
 */
export class Cluster {
  readonly target: ClusterTarget;
  readonly client: KubeClient;
  readonly cache: InformerCache;
  state: ConnectionState = 'connecting';
  lastError?: AppError;
  connectedAt?: Date;
  version?: ServerVersion;
  readonly #abort = new AbortController();
  readonly #log: NonNullable<InformerCacheOptions['log']>;
  #identity?: Promise<Impersonation>;

  constructor(target: ClusterTarget, options: InformerCacheOptions = {}) {
    this.target = target;
    const log = options.log ?? (() => undefined);
    this.#log = log;
    this.client = new KubeClient(target, {
      onReconnect: (reason) =>
        log('warn', `replaced the connections to the Kubernetes API server: ${reason}`),
    });
    this.cache = new InformerCache(this.client, options);
  }

  /**
   * Connects (retrying on the probe schedule while the API server is unreachable) and starts the cache; resolves
   * when the core tier has synced. The agent serves requests meanwhile: they answer 503 `not_ready`. Once
   * connected, a liveness probe keeps the state true: a lost API server turns it `disconnected` (with the error)
   * until a probe gets an answer again, and then every informer waiting to retry resumes at once. A connection
   * that broke or stopped answering is replaced by the client (ADR 0050).
   */
  async start(): Promise<void> {
    let attempt = 0;
    for (;;) {
      try {
        const [version, resources] = await Promise.all([
          this.client.request<ServerVersion>({ path: '/version', signal: this.#abort.signal }),
          discover(this.client),
        ]);
        this.version = version;
        this.state = 'connected';
        this.connectedAt = new Date();
        this.lastError = undefined;
        void this.#probe();
        const discovered = this.cache.namespaces
          ? undefined
          : await readableNamespaces(this.client, new AccessReviewer(this.client), this.#log);
        await this.cache.start(resources, discovered);
        return;
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        this.state = 'disconnected';
        this.lastError = asAppError(error);
        await sleep(backoffDelay(attempt++, Math.random, probeSchedule), undefined, {
          signal: this.#abort.signal,
        }).catch(() => undefined);
      }
    }
  }

  async #probe(): Promise<void> {
    const signal = this.#abort.signal;
    let failures = 0;
    let attempt = 0;
    while (!signal.aborted) {
      const wait =
        this.state === 'disconnected'
          ? backoffDelay(attempt++, Math.random, probeSchedule)
          : livenessProbe.intervalMs;
      await sleep(wait, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      try {
        await this.#ping();
        if (this.state === 'disconnected') {
          this.#log('info', 'the Kubernetes API server answers again');
          this.cache.resume();
        }
        this.state = 'connected';
        this.lastError = undefined;
        failures = 0;
        attempt = 0;
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        if (failures < livenessProbe.failures) continue;
        if (this.state !== 'disconnected')
          this.#log('warn', 'lost the Kubernetes API server', { error: (error as Error).message });
        this.state = 'disconnected';
        this.lastError = asAppError(error);
      }
    }
  }

  /**
   * One probe: `GET /version`. A failure that made the client replace its connections is asked again over the
   * new ones; a probe that timed out is checked over a new connection, which replaces the pool when it answers
   * (a half-open HTTP/2 session answers nothing, and undici would keep sending over it).
   */
  async #ping(): Promise<void> {
    const { timeoutMs } = livenessProbe;
    const probe = () => this.client.request({ path: '/version', signal: this.#abort.signal, timeoutMs });
    const generation = this.client.generation;
    try {
      await probe();
    } catch (error) {
      if (this.client.generation !== generation) {
        await probe();
        return;
      }
      const stalled = error instanceof AppError && error.code === 'cluster_timeout';
      if (stalled && (await this.client.reconnect('/version', timeoutMs))) return;
      throw error;
    }
  }

  /** Every kind the cluster serves; 503 until discovery has run. */
  resources(): readonly ApiResource[] {
    if (this.state !== 'connected') {
      throw this.lastError
        ? new AppError(this.lastError.code, this.lastError.message)
        : notReady('connecting to the cluster; retry shortly');
    }
    return this.cache.resources;
  }

  resolve(kind: string, group?: string): ApiResource {
    return resolveKind(this.resources(), kind, group);
  }

  /** The resource for a group and kind, if served (used by features that know what they look for). */
  find(group: string, kind: string): ApiResource | undefined {
    return this.cache.resources.find((r) => r.group === group && r.kind === kind);
  }

  /**
   * Who the agent itself is to the API server (a SelfSubjectReview, asked once): the actor of changes made
   * without a forwarded caller. When the review is refused, the kubeconfig's context stands in for it.
   */
  identity(): Promise<Impersonation> {
    this.#identity ??= this.client
      .request<{ status?: { userInfo?: { username?: string; groups?: string[] } } }>({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      })
      .then((review) => ({
        user: review.status?.userInfo?.username ?? `kubeconfig context ${this.target.contextName}`,
        groups: review.status?.userInfo?.groups ?? [],
      }))
      .catch(() => {
        this.#identity = undefined;
        return { user: `kubeconfig context ${this.target.contextName}`, groups: [] };
      });
    return this.#identity;
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    this.cache.stop();
    await this.client.close();
  }
}
