import { parseQuantity } from '@binnacle/common';
import { AppsV1Api, CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';

/** CPU in cores and memory in bytes, as a container's requests or limits name them. */
export interface Resources {
  cpu?: number;
  memory?: number;
}

export interface InventoryContainer {
  name: string;
  requests: Resources;
  limits: Resources;
}

export interface InventoryPod {
  namespace: string;
  name: string;
  node: string;
  /** The workload as people name it (Deployment rather than ReplicaSet); a pod nobody owns names itself. */
  owner: { kind: string; name: string };
  /** The pod's direct controller (kube_pod_owner's owner_kind/owner_name). */
  controller?: { kind: string; name: string };
  containers: InventoryContainer[];
}

export interface InventoryNode {
  name: string;
  cpuCores: number;
  memoryBytes: number;
  instanceType: string;
  region: string;
}

export interface InventoryVolume {
  name: string;
  bytes: number;
  claim?: { namespace: string; name: string };
}

/** What the series describe: the cluster's scheduled pods, its nodes and volumes, as the admin lists them. */
export interface Inventory {
  nodes: InventoryNode[];
  pods: InventoryPod[];
  volumes: InventoryVolume[];
}

const quantity = (text: string | undefined) => (text === undefined ? undefined : parseQuantity(text));

const resources = (values: Record<string, string> | undefined): Resources => ({
  ...(values?.cpu ? { cpu: quantity(values.cpu) } : {}),
  ...(values?.memory ? { memory: quantity(values.memory) } : {}),
});

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/** Lists the cluster through an admin kubeconfig, in a stable order so a seeded generator repeats itself. */
export async function clusterInventory(kubeConfig: KubeConfig): Promise<Inventory> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  const [nodes, pods, replicaSets, volumes] = await Promise.all([
    core.listNode(),
    core.listPodForAllNamespaces(),
    apps.listReplicaSetForAllNamespaces(),
    core.listPersistentVolume(),
  ]);
  const deploymentOf = new Map(
    replicaSets.items.map((rs) => [
      `${rs.metadata?.namespace}/${rs.metadata?.name}`,
      rs.metadata?.ownerReferences?.find((ref) => ref.controller)?.name,
    ]),
  );
  const ownerOf = (pod: V1Pod) => {
    const ref = pod.metadata?.ownerReferences?.find((r) => r.controller);
    if (!ref) return { owner: { kind: 'Pod', name: pod.metadata?.name ?? '' } };
    const controller = { kind: ref.kind, name: ref.name };
    const deployment =
      ref.kind === 'ReplicaSet' ? deploymentOf.get(`${pod.metadata?.namespace}/${ref.name}`) : undefined;
    return { controller, owner: deployment ? { kind: 'Deployment', name: deployment } : controller };
  };
  // A node created between the lists (by a test running beside) must not leave a pod without its node's price.
  const known = new Set(nodes.items.map((node) => node.metadata?.name));
  return {
    nodes: nodes.items
      .map((node) => ({
        name: node.metadata?.name ?? '',
        cpuCores: quantity(node.status?.capacity?.cpu) ?? 0,
        memoryBytes: quantity(node.status?.capacity?.memory) ?? 0,
        instanceType: node.metadata?.labels?.['node.kubernetes.io/instance-type'] ?? 'kwok.standard',
        region: node.metadata?.labels?.['topology.kubernetes.io/region'] ?? 'local',
      }))
      .sort(byName),
    pods: pods.items
      .filter((pod) => known.has(pod.spec?.nodeName) && pod.status?.phase === 'Running')
      .map((pod) => ({
        namespace: pod.metadata?.namespace ?? '',
        name: pod.metadata?.name ?? '',
        node: pod.spec?.nodeName ?? '',
        ...ownerOf(pod),
        containers: (pod.spec?.containers ?? []).map((c) => ({
          name: c.name,
          requests: resources(c.resources?.requests),
          limits: resources(c.resources?.limits),
        })),
      }))
      .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name)),
    volumes: volumes.items
      .map((pv) => ({
        name: pv.metadata?.name ?? '',
        bytes: quantity(pv.spec?.capacity?.storage) ?? 0,
        ...(pv.spec?.claimRef?.name
          ? { claim: { namespace: pv.spec.claimRef.namespace ?? '', name: pv.spec.claimRef.name } }
          : {}),
      }))
      .sort(byName),
  };
}
