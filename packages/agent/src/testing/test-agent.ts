import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import { type ClusterIdentity, helmBinary, testCluster, waitUntil } from '@binnacle/testkit';
import { type Agent, createAgent } from '../agent.ts';
import { type AgentConfig, configDefaults } from '../config/agent-config.ts';
import { resolveTarget } from '../kube/kubeconfig.ts';

export interface TestAgentOptions {
  /** The kubeconfig identity the agent runs as (default admin). */
  identity?: ClusterIdentity;
  config?: Partial<AgentConfig>;
  /** Start the cluster connection (default true). With false, requests see an agent that has not connected yet. */
  start?: boolean;
  /** The agent's logger (default: errors to stderr), e.g. to read the audit lines it writes. */
  log?: Parameters<typeof createAgent>[2];
}

export interface TestAgent {
  agent: Agent;
  url: string;
  dataDir: string;
  /** fetch() against the agent: `request('/api/health')`. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** GET a JSON route, failing the test on a non-2xx answer. */
  json<T = Record<string, unknown>>(path: string): Promise<T>;
  /** POST to a route, with a JSON body when one is given (none at all otherwise). */
  post(path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A real agent (the same wiring `binnacle agent` uses) against the test control plane, serving on a free
 * loopback port with its own data dir; resolves once every informer tier has synced.
 */
export async function startTestAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  const cluster = testCluster();
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-agent-'));
  const config: AgentConfig = {
    ...configDefaults(),
    port: 0,
    listenAddress: '127.0.0.1',
    noBrowser: true,
    dataDir,
    releaseFeedUrl: 'http://127.0.0.1:9/unused',
    // Tests that search the chart catalog start a local one (startCatalogServer); none asks the internet.
    catalogUrl: 'http://127.0.0.1:9/unused',
    // The control plane's own chart sources and the helm the bootstrap fetched, as `npm start` has them.
    helmRepositories: cluster.state.chartSources.repositories,
    helmBinary: await helmBinary(),
    kubeconfig: cluster.kubeconfigPath(options.identity ?? 'admin'),
    ...options.config,
  };
  const target = await resolveTarget({ kubeconfig: config.kubeconfig, context: config.context });
  const start = options.start ?? true;
  const agent = await createAgent(config, target, options.log ?? serverLogger('error'), { connect: start });
  const url = await agent.listen();
  if (start) {
    await waitUntil(
      'the test agent to sync every tier',
      () => Promise.resolve(agent.ctx.cluster.cache.tiers().every((t) => t.state === 'synced')),
      {
        timeoutMs: 60_000,
        intervalMs: 50,
      },
    );
  }
  const request = (path: string, init?: RequestInit) => fetch(`${url}${path}`, init);
  return {
    agent,
    url,
    dataDir,
    request,
    async json<T>(path: string) {
      const res = await request(path);
      const body = await res.text();
      if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${body}`);
      return JSON.parse(body) as T;
    },
    post: (path, body) =>
      request(path, {
        method: 'POST',
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
    async close() {
      await agent.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
