import { setTimeout as sleep } from 'node:timers/promises';
import { type HubOwner, signInOwner } from '@binnacle/testkit';
import { Pool } from 'undici';
import { connectedClusters } from './hub-owner.ts';
import { type HubProcess, startHubProcess } from './hub-process.ts';

export interface HubSession {
  hub: HubProcess;
  pool: Pool;
  owner: HubOwner;
}

/** A fresh hub process with the owner signed in; the pool, the process and its data dir are gone afterwards. */
export async function withHub<T>(
  connections: number,
  body: (session: HubSession) => Promise<T>,
  options: { nodeArgs?: string[] } = {},
): Promise<T & { hubStop: Awaited<ReturnType<HubProcess['stop']>> }> {
  const hub = await startHubProcess(options);
  let result: T;
  try {
    const pool = new Pool(hub.url, { connections, pipelining: 1 });
    try {
      result = await body({ hub, pool, owner: await signInOwner(hub) });
    } finally {
      await pool.close();
    }
  } catch (error) {
    await hub.stop();
    throw error;
  }
  return { ...result, hubStop: await hub.stop() };
}

/** Polls the hub's cluster list until every id shows `connected: true`; the time it took. */
export async function awaitConnected(session: HubSession, ids: string[], timeoutMs: number): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  let missing = ids.length;
  while (Date.now() < deadline) {
    const connected = await connectedClusters(session.pool, session.owner);
    missing = ids.filter((id) => !connected.has(id)).length;
    if (missing === 0) return Math.round(performance.now() - started);
    await sleep(50);
  }
  throw new Error(`${missing} of ${ids.length} clusters were not listed as connected after ${timeoutMs} ms`);
}
