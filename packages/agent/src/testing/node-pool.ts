import { randomBytes } from 'node:crypto';
import { deploymentBody, simulatedNode, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';

export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const cordonTaint = 'node.kubernetes.io/unschedulable';

/**
 * kwok nodes of one test file's own, labelled and tainted so that only that file's pods go there and its drains
 * evict nobody else's (take `clusterNodesLock` around them). `deployment` makes pods that go only there.
 */
export function nodePool(prefix: string) {
  const cluster = testCluster();
  const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
  const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
  const id = randomBytes(3).toString('hex');
  const label = { key: 'binnacle.dev/test-pool', value: `${prefix}-${id}` };
  const taint = { key: 'binnacle.dev/dedicated', value: label.value, effect: 'NoSchedule' };
  const created: string[] = [];
  const pool = {
    label,
    name: (suffix: string) => `${prefix}-${id}-${suffix}`,
    async addNode(name: string, cpu: string) {
      const body = simulatedNode(name, 0, cluster.state.kubernetesVersion);
      const resources = { cpu, memory: '16Gi', pods: '110' };
      body.metadata = { ...body.metadata, labels: { ...body.metadata?.labels, [label.key]: label.value } };
      body.spec = { ...body.spec, taints: [taint] };
      body.status = { ...body.status, allocatable: resources, capacity: resources };
      await core.createNode({ body });
      created.push(name);
      // kwok reports it Ready, then the node lifecycle controller lifts its not-ready taint: until then the
      // scheduler (and the drain fit) passes it over.
      await waitUntil(
        `node ${name} Ready without the node controller's taints`,
        async () => {
          const node = await core.readNode({ name });
          const ready = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
          return (
            Boolean(ready) && !(node.spec?.taints ?? []).some((t) => t.key.startsWith('node.kubernetes.io/'))
          );
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
    },
    /**
     * Cordons or uncordons the node, then waits for the node lifecycle controller to add or remove its
     * `node.kubernetes.io/unschedulable` taint: until then the scheduler (and the drain fit) still sees it.
     */
    async setCordoned(name: string, unschedulable: boolean) {
      await core.patchNode({ name, body: { spec: { unschedulable: unschedulable || null } } }, mergePatch);
      await waitUntil(
        `node ${name}'s unschedulable taint ${unschedulable ? 'added' : 'removed'}`,
        async () => {
          const node = await core.readNode({ name });
          return (node.spec?.taints ?? []).some((t) => t.key === cordonTaint) === unschedulable;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
    },
    /** A Deployment whose pods go only on the pool's nodes and each ask for `cpu`. */
    async deploy(namespace: string, name: string, replicas: number, cpu: string) {
      const body = deploymentBody(name, replicas);
      const template = body.spec?.template;
      if (template?.spec)
        template.spec = {
          nodeSelector: { [label.key]: label.value },
          tolerations: [{ key: taint.key, operator: 'Equal', value: taint.value, effect: 'NoSchedule' }],
          containers: template.spec.containers.map((c) => ({ ...c, resources: { requests: { cpu } } })),
        };
      await apps.createNamespacedDeployment({ namespace, body });
    },
    /** The app's pods not being deleted. */
    pods: async (namespace: string, app: string) =>
      (await core.listNamespacedPod({ namespace, labelSelector: `app=${app}` })).items.filter(
        (p) => !p.metadata?.deletionTimestamp,
      ),
    runningOn: (namespace: string, app: string, count: number, node: string) =>
      waitUntil(
        `${count} ${app} pods ready on ${node}`,
        async () => {
          const pods = await pool.pods(namespace, app);
          return pods.length === count && pods.every((p) => p.spec?.nodeName === node && ready(p));
        },
        { timeoutMs: 45_000, intervalMs: 250 },
      ),
    remove: () => Promise.all(created.map((name) => core.deleteNode({ name }).catch(() => undefined))),
  };
  return pool;
}

const ready = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
