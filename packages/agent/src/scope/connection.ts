import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, echo } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentConfig } from '../config/agent-config.ts';
import type { SessionRegistry } from '../http/sessions.ts';
import { tlsFailure } from '../kube/api-errors.ts';
import { KubeconfigError, resolveTarget } from '../kube/kubeconfig.ts';
import { readKubeconfig } from '../kube/kubeconfig-file.ts';
import { ClusterScope } from './cluster-scope.ts';

/** How long a switch (or retry) waits for the new context to connect and load its core kinds. */
export const switchLimits = { timeoutMs: 30_000, pollMs: 100 };

/** What kind of failure keeps the agent from its cluster, for a person to act on. */
export type ErrorKind = 'unreachable' | 'tls' | 'unauthorized' | 'forbidden' | 'timeout' | 'error';

export function errorKind(error: AppError): ErrorKind {
  switch (error.code) {
    case 'cluster_unreachable':
      return error.message.includes(tlsFailure) ? 'tls' : 'unreachable';
    case 'cluster_credentials_rejected':
      return 'unauthorized';
    case 'forbidden':
      return 'forbidden';
    case 'cluster_timeout':
      return 'timeout';
    default:
      return 'error';
  }
}

export interface ConnectionStatus {
  state: 'connected' | 'connecting' | 'disconnected';
  context: string;
  clusterName: string;
  server: string;
  inCluster: boolean;
  /** Why the agent is not connected (absent when it is). */
  error?: string;
  errorType?: ErrorKind;
  code?: string;
  /** Kinds loaded so far, of those started; `ready` once the core kinds are in. */
  sync: { ready: boolean; synced: number; kinds: number };
  progressMessage: string;
}

export interface ContextInfo {
  name: string;
  cluster: string;
  server?: string;
  namespace?: string;
  current: boolean;
}

interface Binding {
  effect: (scope: ClusterScope) => () => void;
  cleanup: () => void;
}

/**
 * The one owner of the agent's context-scoped parts (a ClusterScope): features read the current cluster,
 * timeline and the rest through it (the context's getters), and the few that hold a subscription re-make it with
 * `bind`. Switching and retrying end every session with the reason, close the scope and open the next; they
 * run one at a time.
 */
export class ClusterConnection {
  #scope: ClusterScope;
  readonly #config: AgentConfig;
  readonly #sessions: SessionRegistry;
  readonly #log: FastifyBaseLogger;
  readonly #startContext: string;
  readonly #bindings = new Set<Binding>();
  #queue: Promise<unknown> = Promise.resolve();
  #switching = false;

  constructor(scope: ClusterScope, config: AgentConfig, sessions: SessionRegistry, log: FastifyBaseLogger) {
    this.#scope = scope;
    this.#config = config;
    this.#sessions = sessions;
    this.#log = log;
    this.#startContext = scope.target.contextName;
  }

  get scope(): ClusterScope {
    return this.#scope;
  }

  get inCluster(): boolean {
    return this.#scope.target.source === 'in-cluster';
  }

  /** Starts connecting to the current context (retrying with back-off); resolves once its core kinds are in. */
  start(): Promise<void> {
    return this.#scope.start();
  }

  /** Runs `effect` on the current scope now and on every next one, undoing the previous run first. */
  bind(effect: (scope: ClusterScope) => () => void): () => void {
    const binding: Binding = { effect, cleanup: effect(this.#scope) };
    this.#bindings.add(binding);
    return () => {
      binding.cleanup();
      this.#bindings.delete(binding);
    };
  }

  status(): ConnectionStatus {
    const { cluster, target } = this.#scope;
    const tiers = cluster.cache.tiers();
    const synced = tiers.reduce((sum, t) => sum + t.synced, 0);
    const kinds = tiers.reduce((sum, t) => sum + t.kinds, 0);
    const ready = tiers.find((t) => t.name === 'core')?.state === 'synced';
    const state = this.#switching ? 'connecting' : cluster.state;
    const error = state === 'connected' ? undefined : cluster.lastError;
    const loading = tiers.find((t) => t.state !== 'synced' && t.kinds > 0);
    return {
      state,
      context: target.contextName,
      clusterName: target.clusterName,
      server: target.server.origin,
      inCluster: this.inCluster,
      ...(error && { error: error.message, errorType: errorKind(error), code: error.code }),
      sync: { ready, synced, kinds },
      progressMessage:
        state === 'disconnected'
          ? `cannot reach context "${target.contextName}"; retrying`
          : state === 'connecting'
            ? `connecting to context "${target.contextName}"`
            : loading
              ? `loading ${loading.name} kinds: ${synced} of ${kinds} kinds synced`
              : `${synced} kinds synced`,
    };
  }

  /** The contexts of the kubeconfig as it is on disk now (a connect adds one); in-cluster, the one context. */
  contexts(): ContextInfo[] {
    const target = this.#scope.target;
    if (this.inCluster) {
      return [
        {
          name: target.contextName,
          cluster: target.clusterName,
          server: target.server.origin,
          namespace: target.defaultNamespace,
          current: true,
        },
      ];
    }
    let config: ReturnType<typeof readKubeconfig>;
    try {
      config = readKubeconfig(target.kubeconfigFiles);
    } catch (error) {
      throw new AppError('invalid_request', `the kubeconfig cannot be read: ${(error as Error).message}`);
    }
    return [...config.contexts.values()].map((context) => ({
      name: context.name,
      cluster: context.cluster,
      server: config.clusters.get(context.cluster)?.server,
      namespace: context.namespace,
      current: context.name === target.contextName,
    }));
  }

  /** The kubeconfig files the agent reads (empty in-cluster). */
  get kubeconfigFiles(): readonly string[] {
    return this.#scope.target.kubeconfigFiles;
  }

  /**
   * Serves `name` from now on: 404 for a context the kubeconfig lacks, 400 in-cluster or when the context's
   * credentials cannot be read. Answers the new connection's status once its core kinds are in; when it cannot
   * connect, the agent stays on the new context, disconnected and retrying, and the answer is the failure.
   */
  async switchTo(name: string): Promise<ConnectionStatus> {
    if (this.inCluster) {
      throw new AppError(
        'invalid_request',
        'the agent runs inside the cluster with its service account: it has that one context and cannot switch',
      );
    }
    const known = this.contexts().map((c) => c.name);
    if (!known.includes(name)) {
      throw new AppError(
        'not_found',
        `context "${echo(name)}" not found; the kubeconfig has: ${known.join(', ')}`,
      );
    }
    return this.#replace(name, `the agent switched to context "${name}"`);
  }

  /** Connects to the current context afresh (a full re-initialisation, as a switch to it). */
  retry(): Promise<ConnectionStatus> {
    const name = this.#scope.target.contextName;
    if (this.inCluster) return this.#replace(name, 'the agent reconnected to its cluster');
    return this.#replace(name, `the agent reconnected to context "${name}"`);
  }

  async #replace(name: string, reason: string): Promise<ConnectionStatus> {
    // Replacements run one at a time; waiting for the new cluster does not hold the next one up.
    const replaced = this.#queue.then(async () => {
      const files = this.#scope.target.kubeconfigFiles;
      let target: Awaited<ReturnType<typeof resolveTarget>>;
      try {
        target = await resolveTarget(this.inCluster ? {} : { kubeconfig: files.join(':'), context: name });
      } catch (error) {
        if (error instanceof KubeconfigError) throw new AppError('invalid_request', error.message);
        throw error;
      }
      this.#switching = true;
      try {
        this.#log.info({ context: name }, reason);
        this.#sessions.closeAll(reason);
        await this.#scope.close();
        this.#scope = await ClusterScope.open(this.#config, target, this.#log, this.#startContext);
        for (const binding of this.#bindings) {
          binding.cleanup();
          binding.cleanup = binding.effect(this.#scope);
        }
      } finally {
        this.#switching = false;
      }
      void this.#scope.start();
      return this.#scope;
    });
    this.#queue = replaced.catch(() => undefined);
    return this.#connected(await replaced);
  }

  /** Waits (bounded) for a new scope to load its core kinds; its first failure to connect is the answer. */
  async #connected(scope: ClusterScope): Promise<ConnectionStatus> {
    const deadline = Date.now() + switchLimits.timeoutMs;
    const { cluster, target } = scope;
    while (Date.now() < deadline) {
      if (this.#scope !== scope)
        throw new AppError('conflict', `a later switch replaced context "${target.contextName}"`);
      if (cluster.cache.tiers().find((t) => t.name === 'core')?.state === 'synced') return this.status();
      if (cluster.state === 'disconnected' && cluster.lastError) {
        throw cluster.lastError.withContext(`context "${target.contextName}"`);
      }
      await sleep(switchLimits.pollMs);
    }
    throw new AppError(
      'cluster_timeout',
      `context "${target.contextName}" did not load its core kinds within ${switchLimits.timeoutMs / 1000}s; the agent keeps trying`,
    );
  }

  async close(): Promise<void> {
    await this.#queue;
    for (const binding of this.#bindings) binding.cleanup();
    this.#bindings.clear();
    await this.#scope.close();
  }
}
