import { loadavg } from 'node:os';
import { createCluster, signInOwner } from '@binnacle/testkit';
import { Pool } from 'undici';
import { type Agent, dialAgent, startStandIn } from './agent-stand-in.ts';
import { fleetAgentAnswers, sampleFleetView, type ViewFigures } from './fleet-views.ts';
import { publicUrl, withHubInProcess } from './hub-in-process.ts';
import { machine } from './machine.ts';
import type { BenchResult } from './run.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const sizes = [1, 10, 50];
/** Requests per fleet size, one at a time; bounded in time too, so a slow machine still finishes. */
const samples = 200;
const maxSecondsPerSize = 60;
const connectTimeoutMs = 30_000;

/**
 * Fleet fan-out latency: a real hub (in this process, SQLite) with 1, 10 and 50 clusters connected over real
 * tunnels (`dialHub`) to one agent stand-in that answers the dashboard with twenty canned problems; p50/p99 of
 * GET /api/fleet/problems as the owner. Load, hub, dialers and stand-in share this process.
 */
export async function fleetFanout(): Promise<BenchResult> {
  const standIn = await startStandIn(fleetAgentAnswers());
  const agents: Agent[] = [];
  try {
    const figures = await withHubInProcess(undefined, async (hub, url) => {
      const pool = new Pool(url, { connections: 1, pipelining: 1 });
      try {
        const owner = await signInOwner({ url, publicUrl });
        const account = await pool.request({
          method: 'GET',
          path: '/api/account',
          headers: { cookie: owner.cookie },
        });
        const userId = ((await account.body.json()) as { user: { id: string } }).user.id;
        const forget = () => hub.ctx.fleetLimit.forget(userId);
        const results: ViewFigures[] = [];
        for (const size of sizes) {
          while (agents.length < size) {
            const cluster = await createCluster(
              { url },
              owner,
              `bench-${String(agents.length).padStart(3, '0')}`,
            );
            standIn.trust(cluster.id, cluster.token);
            agents.push(await dialAgent(url, cluster.token, standIn.server, connectTimeoutMs));
          }
          // The caller's bucket (30 per minute) is emptied before each request: the fan-out is measured, not the limit.
          const result = await sampleFleetView(pool, owner.cookie, '/api/fleet/problems', size, {
            samples,
            maxSeconds: maxSecondsPerSize,
            before: forget,
          });
          log(
            `${size} clusters: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (${result.requests} requests)`,
          );
          results.push(result);
        }
        return results;
      } finally {
        await pool.close();
      }
    });
    const load = loadavg().map((l) => Math.round(l * 100) / 100);
    const cells = figures.map((f) => `${f.clusters}: p50 ${f.p50Ms} / p99 ${f.p99Ms} ms (${f.requests})`);
    return {
      name: 'fleet-fanout',
      summary: `GET /api/fleet/problems one at a time, clusters connected over real tunnels to a stand-in (20 problems each); ${cells.join(', ')}; load average ${load.join(' ')}`,
      data: { machine: machine(), loadAverage: load, samples, figures },
    };
  } finally {
    await Promise.all(agents.map((a) => a.close()));
    await standIn.close();
  }
}
