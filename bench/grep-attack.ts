import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { criLine } from '@binnacle/testkit';
import { Pool } from 'undici';
import type { KubeList } from '../packages/agent/src/kube/objects.ts';
import { goal } from './goals.ts';
import { load } from './http-load.ts';
import { loadCluster } from './load.ts';
import { machine } from './machine.ts';
import type { BenchResult } from './run.ts';
import { syncedAgent } from './synced-agent.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const round = (value: number) => Math.round(value * 100) / 100;

/** The pattern that froze the agent for 24–42 s on RegExp (issue 37), and one the RE2 DFA cannot cache. */
const patterns = { backtracking: '^(.?){18}.{18}#', uncachable: 'a.{20}b#' };

/**
 * `npm run bench -- grep-attack [--lines=2000] [--calls=10]`: `/api/health` latency (p50/p99/worst, one request
 * at a time) while `get_pod_logs` runs each catastrophic grep over `--lines` log lines of 200 characters, `--calls`
 * times in a row; goal: worst health answer ≤ 100 ms (issue 37). The lines are appended to the simulated
 * containers' log (every pod's), random `a`s and `b`s so the second pattern keeps the DFA busy.
 */
export async function grepAttack(args: string[]): Promise<BenchResult> {
  const option = (name: string, fallback: number) =>
    Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const lines = option('lines', 2000);
  const calls = option('calls', 10);
  return loadCluster(0, async (state, client) => {
    // Random a and b (a fixed-seed LCG): a periodic text would let the DFA cache its few states.
    let seed = 1;
    const letter = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
      return (seed >> 16) & 1 ? 'a' : 'b';
    };
    const text = Array.from({ length: lines }, () =>
      criLine(Array.from({ length: 200 }, letter).join('')),
    ).join('');
    await appendFile(join(state.stateDir, 'pods', 'current.log'), text);
    const pods = await client.request<KubeList>({
      path: '/api/v1/namespaces/demo-shop/pods?labelSelector=app.kubernetes.io%2Fname%3Dstorefront',
    });
    const pod = pods.items?.[0]?.metadata?.name;
    if (!pod) throw new Error('no storefront pod in demo-shop');
    const agent = await syncedAgent(state.kubeconfigs.admin);
    const pool = new Pool(agent.url, { connections: 4 });
    try {
      const podLogs = async (grep: string, id: number) => {
        const res = await pool.request({
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              name: 'get_pod_logs',
              arguments: { namespace: 'demo-shop', name: pod, tail_lines: lines, grep },
            },
          }),
        });
        const body = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`/mcp answered ${res.statusCode}: ${body.slice(0, 300)}`);
        const text = (JSON.parse(body) as { result: { content: { text: string }[] } }).result.content[0]
          ?.text;
        return Number(/; (\d+) lines matching/.exec(text ?? '')?.[1] ?? Number.NaN);
      };
      // Every appended line holds an `a`: the tool must have read them all, or the figures mean nothing.
      const read = await podLogs('a', 0);
      if (!(read >= lines)) throw new Error(`get_pod_logs read ${read} lines with an a, not ${lines}`);
      const attack = async (grep: string) => {
        const durations: number[] = [];
        for (let i = 0; i < calls; i++) {
          const at = performance.now();
          await podLogs(grep, i + 1);
          durations.push(round(performance.now() - at));
        }
        return durations;
      };
      const figures: Record<string, unknown> = {};
      const parts: string[] = [];
      for (const [name, grep] of Object.entries(patterns)) {
        let attacking = true;
        const calling = attack(grep).finally(() => {
          attacking = false;
        });
        const health = await load(pool, {
          path: '/api/health',
          concurrency: 1,
          warmupMs: 0,
          durationMs: 120_000,
          maxRequests: 100_000,
          done: () => !attacking,
        });
        const durations = await calling;
        figures[name] = { grep, health, calls: durations };
        const worst = Math.round(health.maxMs);
        log(`${name} ${grep}: health p50 ${health.p50Ms} / p99 ${health.p99Ms} / worst ${worst} ms`);
        parts.push(
          `${grep} (${calls} calls, ${Math.round(Math.min(...durations))}–${Math.round(Math.max(...durations))} ms each): /api/health p50 ${health.p50Ms} / p99 ${health.p99Ms} ms, worst ${goal(worst, 100, 'ms')} (${health.requests})`,
        );
      }
      return {
        name: 'grep-attack',
        summary: `get_pod_logs over ${lines} lines of 200 characters with a catastrophic grep, /api/health one at a time meanwhile; ${parts.join('; ')}`,
        data: { lines, calls, pod, ...figures, machine: machine() },
      };
    } finally {
      await pool.close();
      await agent.close();
    }
  });
}
