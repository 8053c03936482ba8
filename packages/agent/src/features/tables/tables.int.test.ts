import { openSse, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { tableStreamEvents } from './schemas.ts';

const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

interface Row {
  uid: string;
  namespace?: string;
  name: string;
  cells: unknown[];
}
interface Window {
  kind: string;
  source: string;
  columns: { name: string; type: string }[];
  total: number;
  offset: number;
  rows: Row[];
}
interface Patch {
  rows?: Row[];
  removed?: string[];
  order?: string[];
  total?: number;
}

const table = async (query: string) => {
  const res = await agent.request(`/api/tables/${query}`);
  return { status: res.status, body: (await res.json()) as Window & { error?: string; code?: string } };
};
const names = (window: Window) => window.rows.map((r) => r.name);
const configMap = (name: string) =>
  core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name }, data: { v: '1' } } });

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('tables')]);
  for (const name of ['cm-2', 'cm-10', 'cm-1']) await configMap(name);
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('GET /api/tables/:kind', () => {
  it('answers a window with the exact total, filtered and sorted on the agent in natural order', async () => {
    // Every namespace also holds kube-root-ca.crt.
    const all = await table(`configmaps?namespace=${ns.name}&sort=name&limit=2`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ kind: 'ConfigMap', source: 'cache', total: 4, offset: 0 });
    expect(all.body.columns.map((c) => c.name)).toContain('AGE');
    expect(names(all.body)).toEqual(['cm-1', 'cm-2']);
    const filtered = await table(`configmaps?namespace=${ns.name}&filter=CM-&offset=1`);
    expect([filtered.body.total, names(filtered.body)]).toEqual([3, ['cm-2', 'cm-10']]);
    const desc = await table(`configmaps?namespace=${ns.name}&filter=cm-&sort=name&order=desc`);
    expect(names(desc.body)).toEqual(['cm-10', 'cm-2', 'cm-1']);
  });

  it('refuses what it cannot answer, naming the field', async () => {
    const sort = await table(`configmaps?namespace=${ns.name}&sort=NODE`);
    expect([sort.status, sort.body.code]).toEqual([400, 'invalid_request']);
    expect(sort.body.error).toContain('"sort" must be one of name, namespace, DATA, AGE');
    const limit = await table('configmaps?limit=1001');
    expect([limit.status, limit.body.code]).toEqual([400, 'invalid_request']);
    expect(limit.body.error).toContain('limit');
    const filter = await table(`configmaps?filter=${'x'.repeat(254)}`);
    expect(filter.status).toBe(400);
  });

  it('lists a kind the agent does not cache live, with its total', async () => {
    const revisions = await table('controllerrevisions?namespace=demo-data');
    expect(revisions.status).toBe(200);
    expect(revisions.body.source).toBe('live');
    expect(revisions.body.total).toBeGreaterThanOrEqual(1);
    expect(revisions.body.rows).toHaveLength(revisions.body.total);
  });

  it('adds CPU and MEMORY to pods once metrics-server has answered a poll', async () => {
    const poller = agent.agent.ctx.metrics.poller;
    await waitUntil(
      'a metrics poll with pod samples',
      async () => {
        await poller.poll();
        if (poller.last?.podsError) throw new Error(poller.last.podsError);
        return poller.history.size.pods > 0;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const pods = await table('pods?namespace=demo-shop&sort=MEMORY&order=desc');
    expect(pods.status).toBe(200);
    const columns = pods.body.columns.map((c) => c.name);
    expect(columns.slice(-2)).toEqual(['CPU', 'MEMORY']);
    const memory = pods.body.rows.map((r) => r.cells.at(-1));
    expect(memory[0]).toMatch(/^\d+Mi$/);
    const sizes = memory.map((m) => (typeof m === 'string' ? Number.parseInt(m, 10) : -1));
    expect(sizes).toEqual(sizes.toSorted((a, b) => b - a));
  });
});

describe('GET /api/tables/:kind/stream', () => {
  it('sends the window, then only what changes in it', async () => {
    const stream = await openSse(`${agent.url}/api/tables/configmaps/stream?namespace=${ns.name}&filter=cm-`);
    try {
      const first = (await stream.next((e) => e.event === 'window')).data as Window;
      expect([first.total, names(first)]).toEqual([3, ['cm-1', 'cm-2', 'cm-10']]);
      const created = performance.now();
      await configMap('cm-3');
      const added = await stream.next((e) => e.event === 'patch');
      const patch = added.data as Patch;
      expect(patch.rows?.map((r) => r.name)).toEqual(['cm-3']);
      expect(patch.total).toBe(4);
      expect(patch.order).toHaveLength(4);
      // Generous: the goal is a second in the browser; a broken stream never delivers.
      expect(added.receivedAt - created).toBeLessThan(5000);

      // One new object costs about its row, not the window.
      expect(JSON.stringify(patch).length).toBeLessThan(400);

      const uid = first.rows.find((r) => r.name === 'cm-2')?.uid;
      await core.deleteNamespacedConfigMap({ namespace: ns.name, name: 'cm-2' });
      const removed = await stream.next(
        (e) => e.event === 'patch' && (e.data as Patch).removed !== undefined,
      );
      expect(removed.data).toMatchObject({ removed: [uid], total: 3 });
      // The window and its patches are the events the route documents (ADR 0107).
      expect(Value.Check(tableStreamEvents.window, first)).toBe(true);
      for (const { data } of [added, removed]) expect(Value.Check(tableStreamEvents.patch, data)).toBe(true);
    } finally {
      stream.close();
    }
  });
});
