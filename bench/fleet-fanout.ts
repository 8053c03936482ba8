import { loadavg } from 'node:os';
import { createCluster, signInOwner } from '@binnacle/testkit';
import { Pool } from 'undici';
import { type Agent, dialAgent, startStandIn } from './agent-stand-in.ts';
import { quantile } from './http-load.ts';
import { publicUrl, withHubInProcess } from './hub-in-process.ts';
import { machine } from './machine.ts';
import type { BenchResult } from './run.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const sizes = [1, 10, 50];
/** Requests per fleet size, one at a time; bounded in time too, so a slow machine still finishes. */
const samples = 200;
const maxSecondsPerSize = 60;
const connectTimeoutMs = 30_000;

/** A dashboard's problems as an agent answers them: twenty rows, the size of a troubled cluster's list. */
function dashboardAnswer(): string {
  const problems = Array.from({ length: 20 }, (_, i) => ({
    kind: 'Pod',
    namespace: 'shop',
    name: `web-${i}`,
    status: 'Running',
    reason: 'CrashLoopBackOff',
    message: 'back-off 5m0s restarting failed container',
    ageSeconds: 600 + i,
    source: 'health',
  }));
  return JSON.stringify({
    problems,
    health: { healthy: 80, warning: 5, error: 20, warningEvents: 3 },
    loading: [],
  });
}

interface SizeFigures {
  clusters: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  rows: number;
}

/**
 * GET /api/fleet/problems one request at a time with `count` clusters connected. The caller's fan-out bucket
 * (30 per minute) is emptied before each request: this measures the fan-out, not the limit.
 */
async function measure(
  pool: Pool,
  cookie: string,
  count: number,
  forget: () => void | Promise<void>,
): Promise<SizeFigures> {
  const latencies = new Float64Array(samples);
  const until = performance.now() + maxSecondsPerSize * 1000;
  let measured = 0;
  let rows = 0;
  while (measured < samples && performance.now() < until) {
    await forget();
    const started = performance.now();
    const res = await pool.request({ method: 'GET', path: '/api/fleet/problems', headers: { cookie } });
    const text = await res.body.text();
    const took = performance.now() - started;
    const answer = JSON.parse(text) as { total?: number; errors?: unknown[] };
    if (res.statusCode !== 200 || answer.errors?.length)
      throw new Error(`GET /api/fleet/problems answered ${res.statusCode}: ${text.slice(0, 500)}`);
    rows = answer.total ?? 0;
    latencies[measured++] = took;
  }
  const sorted = latencies.subarray(0, measured).sort();
  const ms = (value: number) => Math.round(value * 100) / 100;
  return {
    clusters: count,
    requests: measured,
    p50Ms: ms(quantile(sorted, 0.5)),
    p99Ms: ms(quantile(sorted, 0.99)),
    maxMs: ms(sorted[measured - 1] ?? 0),
    rows,
  };
}

/**
 * Fleet fan-out latency: a real hub (in this process, SQLite) with 1, 10 and 50 clusters connected over real
 * tunnels (`dialHub`) to one agent stand-in that answers the dashboard with twenty canned problems; p50/p99 of
 * GET /api/fleet/problems as the owner. Load, hub, dialers and stand-in share this process.
 */
export async function fleetFanout(): Promise<BenchResult> {
  const standIn = await startStandIn({ '/api/dashboard': dashboardAnswer() });
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
        const results: SizeFigures[] = [];
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
          const result = await measure(pool, owner.cookie, size, forget);
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
