import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { clusterBinaries, clusterNodesLock, testCluster, waitUntil } from '@binnacle/testkit';
import { ApiregistrationV1Api, CoreV1Api, type V1APIService } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const run = promisify(execFile);
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const metricsApiService = 'v1beta1.metrics.k8s.io';

interface TopPods {
  available: boolean;
  total: number;
  pods: { namespace: string; name: string; cpuMillicores: number; memoryBytes: number; node?: string }[];
}
interface TopNodes {
  available: boolean;
  nodes: {
    name: string;
    cpuMillicores: number;
    pods: number;
    cpuAllocatableMillicores?: number;
    cpuPercent?: number;
  }[];
}
interface History {
  available: boolean;
  capacity: number;
  samples: { timestamp: string; cpuMillicores: number; containers?: { name: string }[] }[];
}

let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let kubectl: string;

/** `kubectl top <kind>` with the built kubectl, as rows of words. */
async function kubectlTop(...args: string[]): Promise<string[][]> {
  const { stdout } = await run(kubectl, [
    '--kubeconfig',
    cluster.kubeconfigPath('admin'),
    'top',
    ...args,
    '--no-headers',
  ]);
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/));
}

/**
 * Both views of the same moving data agree once they are read between two scrapes. On timeout the last pair is
 * returned all the same: the caller's expectation shows what still differs, better than the wait's message.
 */
async function agreeing<T>(read: () => Promise<[T, T]>): Promise<[T, T]> {
  let last: [T, T] | undefined;
  await waitUntil(
    'kubectl top and the agent agreeing',
    async () => {
      last = await read();
      return JSON.stringify(last[0]) === JSON.stringify(last[1]);
    },
    { timeoutMs: 10_000, intervalMs: 1000 },
  ).catch(() => undefined);
  return last as [T, T];
}

beforeAll(async () => {
  [agent, restricted, ns, { kubectl }] = await Promise.all([
    // The timer never fires within the test: polls are made by hand, one at a time.
    startTestAgent({ config: { metricsPollMs: 3_600_000, metricsHistory: 3 } }),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('metrics'),
    clusterBinaries(),
  ]);
  // metrics-server scrapes every 10 s; a fresh control plane has no pod metrics for its first scrapes.
  await waitUntil(
    'pod metrics from metrics-server',
    async () => {
      // The seed runs 11 pods: storefront (3), checkout and billing (2 each), postgres, node-exporter (1 per node).
      const top = await agent.json<TopPods>('/api/metrics/top/pods');
      if (!top.available || top.total < 10) throw new Error(JSON.stringify(top));
      return true;
    },
    { timeoutMs: 90_000, intervalMs: 1000 },
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close(), ns?.remove()]);
});

describe('GET /api/metrics/top/pods', () => {
  it('lists the same pods as `kubectl top pods -A`', async () => {
    const [fromKubectl, fromAgent] = await agreeing(async () => {
      const [rows, top] = await Promise.all([
        kubectlTop('pods', '-A'),
        agent.json<TopPods>('/api/metrics/top/pods'),
      ]);
      return [
        rows.map(([namespace, name]) => `${namespace}/${name}`).sort(),
        top.pods.map((p) => `${p.namespace}/${p.name}`).sort(),
      ];
    });
    expect(fromAgent).toEqual(fromKubectl);
    expect(fromAgent.length).toBeGreaterThanOrEqual(10);
  });

  it('puts the busiest pod first, with the usage the seed gives it and its requests beside it', async () => {
    const top = await agent.json<TopPods & { pods: { cpuRequestMillicores?: number }[] }>(
      '/api/metrics/top/pods?namespace=demo-data&limit=1',
    );
    expect(top.total).toBe(1);
    const [postgres] = top.pods;
    // The seed annotates postgres with kwok.x-k8s.io/usage-cpu: 450m and usage-memory: 1100Mi.
    expect(postgres).toMatchObject({
      namespace: 'demo-data',
      name: 'postgres-0',
      memoryBytes: 1100 * 1024 ** 2,
    });
    expect(postgres?.cpuMillicores).toBeGreaterThan(400);
    expect(postgres?.cpuMillicores).toBeLessThan(500);
    expect(postgres?.node).toMatch(/^kwok-node-/);
    const all = await agent.json<TopPods>('/api/metrics/top/pods?sort=memory&limit=2');
    expect(all.pods).toHaveLength(2);
    expect(all.pods[0]?.memoryBytes).toBeGreaterThanOrEqual(all.pods[1]?.memoryBytes ?? 0);
    expect(all.total).toBeGreaterThan(2);
  });

  it('answers 400 naming a bad sort, limit or namespace', async () => {
    for (const query of ['sort=bogus', 'limit=0', 'limit=x', 'namespace=Not_A_Namespace', 'extra=1']) {
      const res = await agent.request(`/api/metrics/top/pods?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({ code: 'invalid_request' });
    }
  });

  it('answers 403 with the API server reason to an identity that may not read metrics', async () => {
    const res = await restricted.request('/api/metrics/top/pods');
    expect(res.status).toBe(403);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('forbidden');
    expect(body.error).toContain('binnacle-restricted');
  });
});

describe('GET /api/metrics/top/nodes', () => {
  it('lists the same nodes as `kubectl top nodes`, against their allocatable CPU', async () => {
    const unlock = await cluster.lock(clusterNodesLock);
    try {
      const [fromKubectl, fromAgent] = await agreeing(async () => {
        const [rows, top] = await Promise.all([
          kubectlTop('nodes'),
          agent.json<TopNodes>('/api/metrics/top/nodes'),
        ]);
        return [rows.map(([name]) => name ?? '').sort(), top.nodes.map((n) => n.name).sort()];
      });
      expect(fromAgent).toEqual(fromKubectl);
    } finally {
      await unlock();
    }
    const top = await agent.json<TopNodes>('/api/metrics/top/nodes?sort=name');
    const node = top.nodes.find((n) => n.name === 'kwok-node-0');
    expect(node).toMatchObject({ cpuAllocatableMillicores: 4000 });
    expect(node?.cpuMillicores).toBeGreaterThan(0);
    expect(node?.cpuPercent).toBe(Math.round(((node?.cpuMillicores ?? 0) / 4000) * 1000) / 10);
    expect(top.nodes.reduce((sum, n) => sum + n.pods, 0)).toBeGreaterThan(5);
  });
});

describe('GET /api/metrics/pods/{namespace}/{name} and /nodes/{name}', () => {
  it("answers a pod's usage per container, as metrics.k8s.io has it", async () => {
    const metrics = await agent.json<{
      available: boolean;
      namespace: string;
      containers: { name: string; memoryBytes: number }[];
      memoryBytes: number;
      windowSeconds: number;
    }>('/api/metrics/pods/demo-data/postgres-0');
    expect(metrics).toMatchObject({ available: true, namespace: 'demo-data', name: 'postgres-0' });
    expect(metrics.containers).toEqual([
      expect.objectContaining({ name: 'postgres', memoryBytes: 1100 * 1024 ** 2 }),
    ]);
    expect(metrics.memoryBytes).toBe(1100 * 1024 ** 2);
    expect(metrics.windowSeconds).toBeGreaterThan(0);
    const node = await agent.json<{ available: boolean; name: string; cpuMillicores: number }>(
      '/api/metrics/nodes/kwok-node-0',
    );
    expect(node).toMatchObject({ available: true, name: 'kwok-node-0' });
    expect(node.cpuMillicores).toBeGreaterThan(0);
  });

  it('answers 404 for a pod or node that does not exist, and says so when a pod has no sample yet', async () => {
    for (const path of [`/api/metrics/pods/${ns.name}/nothing-here`, '/api/metrics/nodes/no-such-node']) {
      const res = await agent.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({
        code: 'not_found',
        error: expect.stringMatching(/not found$/),
      });
    }
    // Unschedulable: it never runs, so metrics-server never has a sample of it.
    await admin.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace: ns.name,
      body: {
        metadata: { name: 'pending' },
        spec: { nodeSelector: { nowhere: 'true' }, containers: [{ name: 'app', image: 'app:1' }] },
      },
    });
    await waitUntil(
      'the agent to cache the pod',
      async () => {
        const res = await agent.request(`/api/resources/pods/${ns.name}/pending`);
        if (res.status !== 200) throw new Error(`answered ${res.status}`);
        return true;
      },
      { timeoutMs: 10_000 },
    );
    const res = await agent.request(`/api/metrics/pods/${ns.name}/pending`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain('no sample');
    const history = await agent.json<History>(`/api/metrics/pods/${ns.name}/pending/history`);
    expect(history.samples).toEqual([]);
  });

  it('answers 403 to an identity that may not read metrics', async () => {
    const res = await restricted.request('/api/metrics/pods/demo-data/postgres-0');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'forbidden' });
  });
});

describe('GET .../history', () => {
  it('grows by one sample per poll and keeps at most --metrics-history samples', async () => {
    const poller = agent.agent.ctx.metrics.poller;
    const podPath = '/api/metrics/pods/demo-data/postgres-0/history';
    const before = await agent.json<History>(podPath);
    expect(before).toMatchObject({ available: true, capacity: 3, samples: [] });
    const lengths: number[] = [];
    for (let poll = 0; poll < 5; poll++) {
      await poller.poll();
      lengths.push((await agent.json<History>(podPath)).samples.length);
    }
    expect(lengths).toEqual([1, 2, 3, 3, 3]);
    const pod = await agent.json<History>(podPath);
    const times = pod.samples.map((s) => Date.parse(s.timestamp));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(times).size).toBe(3);
    expect(pod.samples[2]?.containers).toEqual([expect.objectContaining({ name: 'postgres' })]);
    expect(pod.samples[2]?.cpuMillicores).toBeGreaterThan(400);
    const node = await agent.json<History>('/api/metrics/nodes/kwok-node-0/history');
    expect(node.samples).toHaveLength(3);
    expect(node.samples[0]).not.toHaveProperty('containers');
  });

  it('answers 404 for an object the cluster does not have', async () => {
    const res = await agent.request('/api/metrics/nodes/no-such-node/history');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});

// Last: it removes metrics.k8s.io from the shared control plane for a few seconds.
describe('without metrics-server', () => {
  it('answers available:false with a diagnosis from the APIService, never an error', async () => {
    const registration = admin.makeApiClient(ApiregistrationV1Api);
    const saved: V1APIService = await registration.readAPIService({ name: metricsApiService });
    await registration.deleteAPIService({ name: metricsApiService });
    try {
      await waitUntil(
        'the agent to notice metrics.k8s.io is gone',
        async () => {
          const top = await agent.json<{ available: boolean; reason?: string }>('/api/metrics/top/pods');
          if (top.available) throw new Error('still available');
          return true;
        },
        { timeoutMs: 15_000, intervalMs: 500 },
      );
      for (const path of [
        '/api/metrics/top/pods',
        '/api/metrics/top/nodes',
        '/api/metrics/pods/demo-data/postgres-0',
      ]) {
        const body = await agent.json<{ available: boolean; reason: string; diagnosis: string }>(path);
        expect(body, path).toEqual({
          available: false,
          reason: 'not_installed',
          diagnosis: expect.stringContaining('no APIService v1beta1.metrics.k8s.io'),
        });
      }
      await agent.agent.ctx.metrics.poller.poll();
      const history = await agent.json<History & { diagnosis: string; lastPoll: { error: string } }>(
        '/api/metrics/pods/demo-data/postgres-0/history',
      );
      expect(history).toMatchObject({
        available: false,
        diagnosis: expect.stringContaining('metrics-server'),
      });
      expect(history.lastPoll.error).toContain('no APIService');
      expect(history.samples).toHaveLength(2);
    } finally {
      await registration.createAPIService({
        body: { metadata: { name: metricsApiService, labels: saved.metadata?.labels }, spec: saved.spec },
      });
    }
  });
});
