import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Agent, type AgentConfig, configDefaults, createAgent, resolveTarget } from '@binnacle/agent';
import { waitUntil } from '@binnacle/testkit';
import pino from 'pino';

export interface SyncedAgent {
  agent: Agent;
  url: string;
  close(): Promise<void>;
}

/** An agent on a loopback port against the bench cluster, resolved once every informer tier has synced. */
export async function syncedAgent(
  kubeconfig: string,
  config: Partial<AgentConfig> = {},
): Promise<SyncedAgent> {
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-bench-'));
  const agent = await createAgent(
    { ...configDefaults(), port: 0, dataDir, kubeconfig, noBrowser: true, historyLimit: 100_000, ...config },
    await resolveTarget({ kubeconfig }),
    pino({ level: 'silent' }),
    { connect: true },
  );
  const url = await agent.listen();
  const close = async () => {
    await agent.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      'the agent to sync',
      () => Promise.resolve(agent.ctx.cluster.cache.tiers().every((t) => t.state === 'synced')),
      { timeoutMs: 300_000 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { agent, url, close };
}
