import { testCluster, waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';
import { podWithStatus } from '../../testing/pods.ts';

// A viewer's grep against the agent's only thread (issue 37): the pattern below took 24–42 s on RegExp, and
// every other request to the agent waited for it.
const proxyAddress = '127.0.0.2';
const user = 'grep-viewer@example.com';
const attack = '^(.?){18}.{18}#';

let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let unbind: (() => Promise<void>) | undefined;

beforeAll(async () => {
  [agent, ns] = await Promise.all([
    startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: proxyAddress } }),
    testCluster().namespace('mcp-grep'),
  ]);
  unbind = await bindInNamespace(ns.name, { kind: 'User', name: user });
  await podWithStatus(ns.name, 'app', {});
  const pods = agent.agent.ctx.cluster.resolve('pods');
  await waitUntil(
    'the agent to cache the pod',
    () => Promise.resolve(agent.agent.ctx.cluster.cache.get(pods, 'app', ns.name) !== undefined),
    { timeoutMs: 20_000 },
  );
}, 60_000);

afterAll(async () => {
  await unbind?.();
  await Promise.all([agent?.close(), ns?.remove()]);
});

/** get_pod_logs of the pod as the viewer, through the trusted proxy address. */
const podLogs = (grep: string) =>
  sendFrom(
    agent,
    '/mcp',
    { 'x-forwarded-user': user, accept: 'application/json, text/event-stream' },
    proxyAddress,
    'POST',
    {
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_pod_logs',
          arguments: { namespace: ns.name, name: 'app', tail_lines: 2000, grep },
        },
      },
    },
  );

type ToolAnswer = { result: { isError?: boolean; content: { text: string }[] } };

describe('grep in the log tools', () => {
  it("answers a viewer's catastrophic pattern while /api/health keeps answering at once", async () => {
    const latencies: number[] = [];
    let attacking = true;
    const poll = (async () => {
      while (attacking) {
        const start = performance.now();
        const res = await agent.request('/api/health');
        await res.arrayBuffer();
        latencies.push(performance.now() - start);
        // Paces the probe (not a wait for anything): a health request every 10 ms while the call runs.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const answer = await podLogs(attack).finally(() => {
      attacking = false;
    });
    await poll;
    process.stderr.write(
      `[grep] ${latencies.length} health answers during the call, worst ${Math.max(...latencies).toFixed(1)} ms\n`,
    );
    expect(answer.status).toBe(200);
    const { result } = answer.body as ToolAnswer;
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(result.content[0]?.text).toMatch(
      new RegExp(`^# ${ns.name}/app container main \\(containers: main\\); 0 lines matching /`),
    );
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
  });

  it('takes RE2 syntax case-insensitively, and what does not compile as plain text', async () => {
    const lines = async (grep: string) => {
      const { result } = (await podLogs(grep)).body as ToolAnswer;
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      return (result.content[0]?.text ?? '').split('\n').slice(1);
    };
    // Every simulated container logs `level=info seq=N msg="…"` (pod-sim).
    const info = await lines('LEVEL=INFO');
    expect(info.length).toBeGreaterThan(0);
    const numbered = await lines('seq=\\d+ msg=');
    expect(numbered.length).toBeGreaterThan(0);
    for (const line of numbered) expect(line).toMatch(/seq=\d+ msg=/);
    expect(await lines('msg=(?=")')).toEqual([]);
  });
});
