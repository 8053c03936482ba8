import { CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { ClusterState } from './state.ts';
import { waitUntil } from './wait.ts';

const nodesTimeoutMs = 60_000;

const zones = ['zone-a', 'zone-b', 'zone-c'];

/** A Node that kwok manages, with the labels and capacity of a small cloud VM. */
export function simulatedNode(name: string, index: number, kubeletVersion: string): V1Node {
  const resources = { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'm5.xlarge',
        'topology.kubernetes.io/zone': zones[index % zones.length] ?? 'zone-a',
        type: 'kwok',
      },
      annotations: {
        'kwok.x-k8s.io/node': 'fake',
        'node.alpha.kubernetes.io/ttl': '0',
        // metrics-server scrapes this path on the node's kubelet port, which is kwok's server for every node.
        'metrics.k8s.io/resource-metrics-path': `/metrics/nodes/${name}/metrics/resource`,
      },
    },
    // One /24 per node inside kwok's 10.240.0.0/12: 10.244.0.0/24 … 10.255.255.0/24, so up to 3 072 nodes.
    spec: { podCIDR: `10.${244 + (index >> 8)}.${index & 255}.0/24` },
    status: {
      allocatable: resources,
      capacity: resources,
      nodeInfo: {
        architecture: 'amd64',
        bootID: '',
        containerRuntimeVersion: 'kwok',
        kernelVersion: 'kwok',
        kubeProxyVersion: kubeletVersion,
        kubeletVersion,
        machineID: '',
        operatingSystem: 'linux',
        osImage: 'kwok simulated node',
        systemUUID: '',
      },
    },
  };
}

/**
 * Creates `count` simulated nodes and waits until kwok reports them Ready and the controller manager has made the
 * default ServiceAccount (pods can be created only after it).
 */
export async function createSimulatedNodes(
  kubeconfigPath: string,
  count: number,
  version: string,
  kwok: ClusterState['processes'][number],
): Promise<string[]> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  const names = Array.from({ length: count }, (_, index) => `kwok-node-${index}`);
  await Promise.all(
    names.map((name, index) => core.createNode({ body: simulatedNode(name, index, version) })),
  );
  await waitUntil(
    `${count} kwok nodes Ready`,
    async () => {
      const nodes = await core.listNode();
      const ready = nodes.items.filter((node) =>
        node.status?.conditions?.some(
          (condition) => condition.type === 'Ready' && condition.status === 'True',
        ),
      );
      if (ready.length < count) throw new Error(`${ready.length} of ${count} nodes Ready`);
      return true;
    },
    { timeoutMs: nodesTimeoutMs, process: kwok },
  );
  // Pods can only be created once the controller manager has made the namespace's default ServiceAccount.
  await waitUntil(
    'the default ServiceAccount (kube-controller-manager)',
    async () => Boolean(await core.readNamespacedServiceAccount({ name: 'default', namespace: 'default' })),
    { timeoutMs: nodesTimeoutMs },
  );
  return names;
}
