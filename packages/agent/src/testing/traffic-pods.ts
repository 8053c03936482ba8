import { deploymentBody, type FlowPod, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import type { TestAgent } from './test-agent.ts';

/** Pods of a test namespace: a Deployment `api` (one replica) and a bare pod `client`, running, with their IPs. */
export async function trafficPods(namespace: string): Promise<{ api: V1Pod; client: V1Pod }> {
  const kc = testCluster().kubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  await Promise.all([
    kc.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace, body: deploymentBody('api') }),
    core.createNamespacedPod({
      namespace,
      body: {
        metadata: { name: 'client', labels: { app: 'client' } },
        spec: { containers: [{ name: 'c', image: 'client:1' }] },
      },
    }),
  ]);
  let pods: V1Pod[] = [];
  await waitUntil(
    `the pods of ${namespace} running with IPs`,
    async () => {
      pods = (await core.listNamespacedPod({ namespace })).items;
      return pods.length === 2 && pods.every((p) => p.status?.phase === 'Running' && p.status.podIP);
    },
    { timeoutMs: 30_000 },
  );
  const api = pods.find((p) => p.metadata?.labels?.app === 'api') as V1Pod;
  const client = pods.find((p) => p.metadata?.name === 'client') as V1Pod;
  return { api, client };
}

/** Waits until an agent's cache holds every given pod (flows name their ends from it). */
export async function cached(agent: TestAgent, pods: FlowPod[]): Promise<void> {
  const { cluster } = agent.agent.ctx;
  const informer = cluster.cache.informer(cluster.resolve('pods'));
  await waitUntil(
    'the agent to cache the traffic pods',
    () => Promise.resolve(pods.every((p) => informer?.get(p.metadata?.name ?? '', p.metadata?.namespace))),
    { timeoutMs: 30_000 },
  );
}
