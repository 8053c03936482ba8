import { AppError } from '@binnacle/common/server';
import { parseHeaderList } from '../../config/header-list.ts';
import type { AgentContext } from '../../context.ts';
import { Forward } from '../portforward/forwarder.ts';
import { findObject, resolveService } from '../portforward/ports.ts';
import { identify, type StoreEndpoint, type StoreKind } from './client.ts';
import { type Candidate, rankCandidates } from './discovery.ts';

export type Origin = 'flag' | 'connect' | 'discovered';

export interface Connection {
  endpoint: StoreEndpoint;
  kind: StoreKind;
  version: string;
  origin: Origin;
  /** How the agent reaches a discovered store. */
  via: 'url' | 'cluster-dns' | 'port-forward';
  service?: { namespace: string; name: string; port: number };
}

export type StoreState =
  | { available: true; connection: Connection }
  | { available: false; reason: string; tried: string[] };

/** What finding the store reads: the cluster's Services, the settings, and port-forwards when needed. */
type StoreSearch = Pick<AgentContext, 'cluster' | 'config' | 'connection' | 'mode' | 'sessions' | 'log'>;

/** A failed search is kept this long before the next request searches again. */
const retryAfterMs = 5000;

/**
 * Which metrics store the agent reads, found in layers: the URL of `--metricsdb-url` or of POST /connect (with
 * its headers), else Services with well-known names, else Services that score as a store. A discovered store is
 * reached by its cluster DNS name when the agent runs in the cluster (then through a port-forward), else through
 * a port-forward from the agent's host. The first that answers the Prometheus API is kept until it fails.
 */
export class MetricsStores {
  readonly #ctx: StoreSearch;
  #explicit?: { endpoint: StoreEndpoint; origin: Origin };
  #connection?: Connection;
  #forward?: Forward;
  #failure?: { reason: string; tried: string[]; at: number };
  #resolving?: Promise<StoreState>;

  constructor(ctx: StoreSearch) {
    this.#ctx = ctx;
    const url = ctx.config.metricsdbUrl;
    if (url)
      this.#explicit = {
        endpoint: { url, headers: parseHeaderList(ctx.config.metricsdbHeaders, '--metricsdb-headers') },
        origin: 'flag',
      };
    // A store found among one context's Services is not the next one's: after a switch the next request searches.
    ctx.connection.bind(() => () => {
      if (this.#connection?.origin === 'discovered') this.#release();
      this.#failure = undefined;
    });
  }

  get timeoutMs(): number {
    return this.#ctx.config.metricsdbTimeoutMs;
  }

  /** The store in use, searching again when none is held and the last search is old enough. */
  resolve(): Promise<StoreState> {
    if (this.#connection) return Promise.resolve({ available: true, connection: this.#connection });
    const failure = this.#failure;
    if (failure && Date.now() - failure.at < retryAfterMs)
      return Promise.resolve({ available: false, reason: failure.reason, tried: failure.tried });
    this.#resolving ??= this.#search().finally(() => {
      this.#resolving = undefined;
    });
    return this.#resolving;
  }

  /** A read failed on the held store: drop it, so the next request finds one again. */
  lost(reason: string): { available: false; reason: string; tried: string[] } {
    this.#release();
    this.#failure = { reason, tried: [], at: Date.now() };
    return { available: false, reason, tried: [] };
  }

  /** Uses this URL from now on if it answers the Prometheus API; 502 with what was tried when not. */
  async connect(endpoint: StoreEndpoint): Promise<Connection> {
    try {
      const found = await identify(endpoint, this.timeoutMs);
      this.#release();
      this.#explicit = { endpoint, origin: 'connect' };
      this.#failure = undefined;
      this.#connection = { endpoint, ...found, origin: 'connect', via: 'url' };
      return this.#connection;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('metrics_store_error', `tried ${endpoint.url}/api/v1: ${(error as Error).message}`);
    }
  }

  close(): void {
    this.#release();
  }

  #release(): void {
    this.#forward?.stop('stopped');
    this.#forward = undefined;
    this.#connection = undefined;
  }

  async #search(): Promise<StoreState> {
    const tried: string[] = [];
    const found = this.#explicit
      ? await this.#try(this.#explicit.endpoint, { origin: this.#explicit.origin, via: 'url' }, tried)
      : await this.#discover(tried);
    if (found) {
      this.#connection = found;
      this.#failure = undefined;
      return { available: true, connection: found };
    }
    const reason = this.#explicit
      ? `the metrics store at ${this.#explicit.endpoint.url} does not answer: ${tried.join('; ')}`
      : tried.length > 0
        ? `no candidate answered the Prometheus API: ${tried.join('; ')}`
        : 'no metrics store configured (--metricsdb-url) and no Prometheus-compatible Service found in the namespaces the agent can list';
    this.#failure = { reason, tried, at: Date.now() };
    return { available: false, reason, tried };
  }

  async #try(
    endpoint: StoreEndpoint,
    how: Pick<Connection, 'origin' | 'via' | 'service'>,
    tried: string[],
    label = endpoint.url,
  ) {
    try {
      return { endpoint, ...(await identify(endpoint, this.timeoutMs)), ...how };
    } catch (error) {
      tried.push(`${label}: ${(error as Error).message.replace(`${endpoint.url}: `, '')}`);
      return undefined;
    }
  }

  async #discover(tried: string[]): Promise<Connection | undefined> {
    const services = this.#ctx.cluster.cache.informer(this.#ctx.cluster.resolve('services'));
    if (!services?.synced) return undefined;
    for (const candidate of rankCandidates(services.list())) {
      const service = { namespace: candidate.namespace, name: candidate.service, port: candidate.port };
      if (this.#ctx.mode === 'in-cluster') {
        const url = `http://${candidate.service}.${candidate.namespace}.svc:${candidate.port}${candidate.path}`;
        const direct = await this.#try(
          { url, headers: {} },
          { origin: 'discovered', via: 'cluster-dns', service },
          tried,
        );
        if (direct) return direct;
      }
      const forwarded = await this.#forwardTo(candidate, tried);
      if (forwarded) return forwarded;
    }
    return undefined;
  }

  async #forwardTo(candidate: Candidate, tried: string[]): Promise<Connection | undefined> {
    const where = `service ${candidate.namespace}/${candidate.service}:${candidate.port}`;
    let forward: Forward;
    try {
      const object = findObject(this.#ctx, 'services', candidate.namespace, candidate.service);
      const pick = () => resolveService(this.#ctx, object, candidate.port);
      const { pod, podPort } = pick();
      forward = new Forward(
        this.#ctx,
        {
          namespace: candidate.namespace,
          pod: pod.metadata?.name ?? '',
          service: candidate.service,
          port: candidate.port,
          podPort,
          address: '127.0.0.1',
        },
        pick,
      );
      await forward.listen(0);
    } catch (error) {
      tried.push(`${where}: ${(error as Error).message}`);
      return undefined;
    }
    const url = `http://127.0.0.1:${forward.view.localPort}${candidate.path}`;
    const service = { namespace: candidate.namespace, name: candidate.service, port: candidate.port };
    const how = { origin: 'discovered', via: 'port-forward', service } as const;
    const found = await this.#try({ url, headers: {} }, how, tried, `${where} (port-forward)`);
    if (found) this.#forward = forward;
    else forward.stop('stopped');
    return found;
  }
}
