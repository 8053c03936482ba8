import { join } from 'node:path';
import { resolveTarget } from '@binnacle/agent';
import {
  type ClusterState,
  clusterDown,
  clusterUp,
  repoRoot,
  seedCluster,
  waitUntil,
} from '@binnacle/testkit';
import { KubeClient } from '../packages/agent/src/kube/client.ts';
import type { KubeList } from '../packages/agent/src/kube/objects.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/**
 * Runs `create(0..count-1)` on `workers` concurrent workers. Creation is idempotent (409 is fine), so a bench
 * cluster left over from an interrupted run can be loaded again.
 */
export async function createAll(
  count: number,
  create: (i: number) => Promise<unknown>,
  workers = 16,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++)
      await create(i).catch((error: unknown) => {
        if ((error as { code?: string }).code !== 'already_exists') throw error;
      });
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

/** Creates pods directly on the simulated nodes (no scheduler in the way) and waits until kwok runs them all. */
export async function createPods(
  client: KubeClient,
  nodes: string[],
  count: number,
  namespace = 'bench-load',
): Promise<void> {
  await client
    .request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: namespace } } })
    .catch(() => undefined);
  await createAll(
    count,
    (i) =>
      client.request({
        method: 'POST',
        path: `/api/v1/namespaces/${namespace}/pods`,
        body: {
          metadata: { name: `load-${i}`, labels: { app: `load-${i % 100}`, bench: 'agent-scale' } },
          spec: {
            nodeName: nodes[i % nodes.length],
            containers: [
              { name: 'app', image: 'nginx:1.27.3', resources: { requests: { cpu: '10m', memory: '16Mi' } } },
            ],
          },
        },
      }),
    32,
  );
  let polls = 0;
  await waitUntil(
    `${count} load pods Running`,
    async () => {
      let running = 0;
      let token: string | undefined;
      do {
        const page = await client.request<KubeList>({
          path: `/api/v1/namespaces/${namespace}/pods`,
          query: { limit: 1000, continue: token, fieldSelector: 'status.phase=Running' },
        });
        running += page.items?.length ?? 0;
        token = page.metadata?.continue || undefined;
      } while (token);
      if (++polls % 15 === 0) log(`${running} of ${count} load pods Running`);
      return running >= count;
    },
    // kwok starts about 100 pods a second on this machine's class: 10 000 take under 2 minutes, 50 000 longer.
    { timeoutMs: Math.max(600_000, count * 40), intervalMs: 2000 },
  );
}

const crdGroup = 'load.bench.binnacle.dev';

/**
 * Creates `kinds` namespaced CustomResourceDefinitions (`Load0`, `Load1`, ... in load.bench.binnacle.dev), waits
 * until the API server serves them all, then `perKind` objects of each, so the agent discovers and watches as
 * many more kinds as a cluster with many operators installed.
 */
export async function createCustomResources(
  client: KubeClient,
  kinds: number,
  perKind: number,
  namespace = 'bench-load',
): Promise<void> {
  await client
    .request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: namespace } } })
    .catch(() => undefined);
  const plural = (i: number) => `loads${i}`;
  await createAll(kinds, (i) =>
    client.request({
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: {
        metadata: { name: `${plural(i)}.${crdGroup}` },
        spec: {
          group: crdGroup,
          scope: 'Namespaced',
          names: { plural: plural(i), singular: `load${i}`, kind: `Load${i}`, listKind: `Load${i}List` },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      },
    }),
  );
  await waitUntil(
    `${kinds} custom resource kinds served`,
    async () => {
      const served = await client.request<{ resources?: unknown[] }>({ path: `/apis/${crdGroup}/v1` });
      return (served.resources?.length ?? 0) >= kinds;
    },
    { timeoutMs: 600_000, intervalMs: 2000 },
  );
  await createAll(kinds * perKind, (n) => {
    const kind = n % kinds;
    return client.request({
      method: 'POST',
      path: `/apis/${crdGroup}/v1/namespaces/${namespace}/${plural(kind)}`,
      body: {
        apiVersion: `${crdGroup}/v1`,
        kind: `Load${kind}`,
        metadata: { name: `load-${Math.floor(n / kinds)}`, labels: { bench: 'agent-scale' } },
        spec: { replicas: n % 5, image: 'nginx:1.27.3', endpoints: [`10.0.${kind % 256}.${n % 256}`] },
      },
    });
  });
}

/**
 * Runs `body` against a seeded bench control plane in .cluster/bench with enough simulated nodes for `pods`
 * pods (100 per node unless `nodes` says otherwise), and always stops it afterwards.
 */
export async function loadCluster<T>(
  pods: number,
  body: (state: ClusterState, client: KubeClient) => Promise<T>,
  nodes = Math.max(3, Math.ceil(pods / 100)),
): Promise<T> {
  const stateDir = join(repoRoot, '.cluster/bench');
  // metrics-server's scrapes make kwok too slow to start pods beyond about 10 000 of them.
  const state = await clusterUp({ stateDir, nodes, log, metricsServer: pods <= 10_000 });
  try {
    await seedCluster(state, log);
    const client = new KubeClient(await resolveTarget({ kubeconfig: state.kubeconfigs.admin }));
    try {
      return await body(state, client);
    } catch (error) {
      log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      throw error;
    } finally {
      await client.close();
    }
  } finally {
    await clusterDown({ stateDir });
  }
}
