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
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      await client.request({
        method: 'POST',
        path: `/api/v1/namespaces/${namespace}/pods`,
        body: {
          metadata: { name: `load-${i}`, labels: { app: `load-${i % 100}`, bench: 'agent-startup' } },
          spec: {
            nodeName: nodes[i % nodes.length],
            containers: [
              { name: 'app', image: 'nginx:1.27.3', resources: { requests: { cpu: '10m', memory: '16Mi' } } },
            ],
          },
        },
      });
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
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
      return running >= count;
    },
    // kwok starts about 100 pods a second on this machine's class: 10 000 take under 2 minutes, 50 000 longer.
    { timeoutMs: Math.max(600_000, count * 40), intervalMs: 2000 },
  );
}

/**
 * Runs `body` against a seeded bench control plane in .cluster/bench with enough simulated nodes for `pods`
 * pods (at most 100 per node), and always stops it afterwards.
 */
export async function loadCluster<T>(
  pods: number,
  body: (state: ClusterState, client: KubeClient) => Promise<T>,
): Promise<T> {
  const stateDir = join(repoRoot, '.cluster/bench');
  const state = await clusterUp({ stateDir, nodes: Math.max(3, Math.ceil(pods / 100)), log });
  try {
    await seedCluster(state, log);
    const client = new KubeClient(await resolveTarget({ kubeconfig: state.kubeconfigs.admin }));
    try {
      return await body(state, client);
    } finally {
      await client.close();
    }
  } finally {
    await clusterDown({ stateDir });
  }
}
