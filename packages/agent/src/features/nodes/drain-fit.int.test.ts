import { clusterNodesLock, testCluster } from '@binnacle/testkit';
import { PolicyV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergePatch, nodePool, startTestAgent, type TestAgent } from '../../testing/index.ts';
import { json, mcpClients, readUntil } from '../../testing/mcp-client.ts';
import type { DrainFit } from './fit/drain-fit.ts';

/**
 * The drain fit (ADR 0123) against the real kube-scheduler: kwok nodes of this file's own, labelled and tainted so
 * that only this file's pods go there. `big` (5 CPUs) runs on src1 and fits on no other node; the two `small` pods
 * (1 CPU) run on src2 and fit on dst. The predictions are then checked by the real drains.
 */
const cluster = testCluster();
const policy = cluster.kubeConfig('admin').makeApiClient(PolicyV1Api);
const pool = nodePool('fit');
const [src1, src2, dst] = ['src1', 'src2', 'dst'].map(pool.name) as [string, string, string];
let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let unlockNodes: (() => Promise<void>) | undefined;
const connect = mcpClients();

const fitOf = async (query: string) => {
  const res = await agent.request(`/api/nodes/drain-fit?${query}`);
  return { status: res.status, answer: (await res.json()) as DrainFit & { error?: string; code?: string } };
};
const fitFor = async (query: string) => {
  const { status, answer } = await fitOf(query);
  expect(status, JSON.stringify(answer)).toBe(200);
  return answer;
};
const podOf = (answer: DrainFit, prefix: string) => answer.pods.filter((p) => p.name.startsWith(prefix));
const podsOf = (app: string) => pool.pods(ns.name, app);
const runningOn = (app: string, count: number, node: string) => pool.runningOn(ns.name, app, count, node);

beforeAll(async () => {
  unlockNodes = await cluster.lock(clusterNodesLock);
  [agent, restricted, ns] = await Promise.all([
    startTestAgent(),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('drain-fit'),
  ]);
  // Each node joins once the pods meant for the nodes before it run: a node created cordoned and uncordoned later
  // may keep the unschedulable taint the node lifecycle controller added from a stale view.
  await pool.addNode(src1, '8');
  await pool.deploy(ns.name, 'big', 1, '5');
  await runningOn('big', 1, src1);
  await pool.setCordoned(src1, true);
  await pool.addNode(src2, '4');
  await pool.deploy(ns.name, 'small', 2, '1');
  await runningOn('small', 2, src2);
  await policy.createNamespacedPodDisruptionBudget({
    namespace: ns.name,
    body: {
      metadata: { name: 'small' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'small' } } },
    },
  });
  await pool.addNode(dst, '4');
  await readUntil(
    "the agent's cache to hold the pods, the budget's status and dst uncordoned",
    () => fitFor(`nodes=${src2}`),
    (a) => a.budgets[0]?.disruptionsAllowed === 0 && a.budgets[0]?.evicted === 2 && a.summary !== '',
  );
});

afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close()]);
  await ns?.remove();
  await pool.remove();
  await unlockNodes?.();
});

describe('GET /api/nodes/drain-fit', () => {
  it('judges a group of nodes at once, by names or by label selector', async () => {
    const group = await fitFor(
      `labelSelector=${pool.label.key}%3D${pool.label.value},kubernetes.io/hostname!%3D${dst}`,
    );
    expect(group.nodes).toEqual([src1, src2]);
    expect(group.sequence.reason).toContain('PodDisruptionBudgets keep 2 pod(s) on their nodes');
    expect(group.sequence.possible).toBe(false);
    const byName = await fitFor(`nodes=${src1},${src2}`);
    expect(byName.summary).toBe(group.summary);
  });

  it("reports a pod that fits nowhere with the scheduler's reasons, and the real drain leaves it Pending with them", async () => {
    const before = await fitFor(`nodes=${src1}`);
    expect(before.fits).toBe(false);
    const [big] = podOf(before, 'big-');
    expect(big).toMatchObject({ node: src1, outcome: 'pending' });
    // src2 (2 of 4 CPUs taken) and dst (4) are short of CPU; src1 is the one drained.
    expect(big?.reason).toMatch(
      /^0\/\d+ nodes are available: 1 node\(s\) were unschedulable, 2 Insufficient cpu[,.]/,
    );
    expect(before.sequence).toMatchObject({
      possible: false,
      reason: expect.stringContaining('would stay Pending'),
    });

    const drained = await agent.post(`/api/nodes/${src1}/drain`, { timeout: '30s' });
    expect(drained.status).toBe(200);
    const message = await readUntil(
      "the scheduler's verdict on big's replacement",
      async () => {
        const [pod] = await podsOf('big');
        return pod?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable')
          ?.message;
      },
      (m) => m !== undefined,
    );
    // The scheduler goes on with what its post-filters (claims, preemption) would do; the filters' verdict comes
    // first, and is the prediction word for word.
    expect(message?.slice(0, big?.reason?.length)).toBe(big?.reason);
  });

  it('names the PodDisruptionBudget that blocks, then once it allows one, the node where every pod lands', async () => {
    const blocked = await fitFor(`nodes=${src2}`);
    expect(blocked.fits).toBe(false);
    expect(blocked.budgets).toEqual([
      expect.objectContaining({
        namespace: ns.name,
        name: 'small',
        disruptionsAllowed: 0,
        evicted: 2,
        verdict: 'blocks',
      }),
    ]);
    expect(podOf(blocked, 'small-').map((p) => p.outcome)).toEqual(['blocked', 'blocked']);

    await policy.patchNamespacedPodDisruptionBudget(
      { name: 'small', namespace: ns.name, body: { spec: { minAvailable: 1 } } },
      mergePatch,
    );
    const fits = await readUntil(
      'the budget to allow one disruption',
      () => fitFor(`nodes=${src2}`),
      (a) => a.budgets[0]?.disruptionsAllowed === 1,
    );
    expect(fits).toMatchObject({ fits: true, nodes: [src2] });
    expect(podOf(fits, 'small-').map((p) => [p.outcome, p.target])).toEqual([
      ['placed', dst],
      ['placed', dst],
    ]);
    expect(fits.budgets[0]).toMatchObject({ verdict: 'waits', evicted: 2 });
    expect(fits.sequence).toEqual({
      possible: true,
      batches: [{ nodes: [src2], evictions: 2, waitsFor: [`${ns.name}/small`] }],
    });

    const client = await connect(agent);
    const tool = await json<DrainFit>(client, 'drain_fit', { nodes: [src2] });
    expect(tool.summary).toBe(fits.summary);

    const drained = await agent.post(`/api/nodes/${src2}/drain`, { timeout: '60s' });
    expect(drained.status).toBe(200);
    await runningOn('small', 2, dst);
  });

  it.each([
    ['', 'exactly one'],
    [`nodes=${src1}&labelSelector=a%3Db`, 'exactly one'],
    ['nodes=Not_A_Name', 'invalid node name'],
    ['labelSelector=binnacle.dev%2Fno-such%3Dlabel', 'selects no node'],
    ['nodes=a&force=maybe', 'force'],
  ])('answers 400 to ?%s naming %s', async (query, words) => {
    const { status, answer } = await fitOf(query);
    expect(status).toBe(400);
    expect(answer).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(words) });
  });

  it('answers 404 for a node that does not exist, and 403 to an identity that may not read what the fit needs', async () => {
    const missing = await fitOf('nodes=no-such-node');
    expect(missing.status).toBe(404);
    expect(missing.answer.code).toBe('not_found');
    const res = await restricted.request(`/api/nodes/drain-fit?nodes=${src1}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'forbidden' });
  });
});
