import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { cellText, groupOf, isRelativeTime, type KubeObject, type TableCell } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { clusterBinaries, testCluster, waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../kube/client.ts';
import { type ApiResource, collectionPath, discover, resolveKind } from '../../../kube/discovery.ts';
import { resolveTarget } from '../../../kube/kubeconfig.ts';
import type { KubeList } from '../../../kube/objects.ts';
import { ecosystemStates } from '../../../testing/ecosystem/index.ts';
import { type PlantedStates, plantEcosystemStates } from '../../../testing/ecosystem/plant.ts';
import { withHealthColumns } from '../health-columns.ts';
import { type Printer, printerFor } from './index.ts';

/**
 * Conformance with kubectl: the same objects printed by `kubectl get -o wide` (the API server's printers) and
 * by ours, cell by cell (ADR 0053). Pods in exact states are bound to a node no kwok controller manages, so
 * only this test writes their status.
 */

const run = promisify(execFile);
const cluster = testCluster();
const client = new KubeClient(await resolveTarget({ kubeconfig: cluster.kubeconfigPath('admin') }));
const { kubectl: kubectlPath } = await clusterBinaries();
const kubectl = async (args: string[], stdin?: string) => {
  const child = run(kubectlPath, ['--kubeconfig', cluster.kubeconfigPath('admin'), ...args], {
    maxBuffer: 16 << 20,
  });
  child.child.stdin?.end(stdin ?? '');
  return (await child).stdout;
};

const suffix = randomBytes(3).toString('hex');
const unique = (name: string) => `${name}-${suffix}`;
const absentNode = unique('binnacle-printers-nowhere');
const crdGroup = `p${suffix}.binnacle.dev`;
const seconds = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const minutesAgo = (minutes: number) => seconds(minutes * 60_000);

let namespace = '';
let removeNamespace: () => Promise<void> = async () => {};
let resources: ApiResource[] = [];

// ---- the objects -------------------------------------------------------------------------------------------

const image = 'registry.example/app:1.0';
const container = (name: string) => ({ name, image });
const running = (name: string, ready: boolean, extra: object = {}) => ({
  name,
  image,
  imageID: '',
  ready,
  restartCount: 0,
  started: true,
  state: { running: { startedAt: minutesAgo(10) } },
  ...extra,
});
const waiting = (name: string, reason: string, extra: object = {}) => ({
  name,
  image,
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { waiting: { reason, message: `${reason} for ${name}` } },
  ...extra,
});
const terminated = (name: string, exitCode: number, reason: string, extra: object = {}) => ({
  name,
  image,
  imageID: '',
  ready: false,
  restartCount: 0,
  state: {
    terminated: { exitCode, reason, startedAt: minutesAgo(9), finishedAt: minutesAgo(4) },
  },
  ...extra,
});
const lastDied = (minutes: number, reason = 'Error', exitCode = 1) => ({
  lastState: {
    terminated: { exitCode, reason, startedAt: minutesAgo(minutes + 1), finishedAt: minutesAgo(minutes) },
  },
});
const conditions = (values: Record<string, string>) =>
  Object.entries(values).map(([type, status]) => ({ type, status, lastTransitionTime: minutesAgo(5) }));

interface PodCase {
  name: string;
  spec?: object;
  status?: object;
  /** The STATUS kubectl must print: the reason this case exists. */
  expect: string;
}

/** The tricky pod states: each pod is bound to `absentNode` (unless it must stay unscheduled). */
const podCases: PodCase[] = [
  {
    name: 'init-waiting',
    spec: { initContainers: [container('a'), container('b')] },
    status: {
      phase: 'Pending',
      conditions: conditions({ Initialized: 'False', Ready: 'False' }),
      initContainerStatuses: [running('a', false), waiting('b', 'PodInitializing')],
      containerStatuses: [waiting('app', 'PodInitializing')],
    },
    expect: 'Init:0/2',
  },
  {
    name: 'init-second',
    spec: { initContainers: [container('a'), container('b')] },
    status: {
      phase: 'Pending',
      conditions: conditions({ Initialized: 'False' }),
      initContainerStatuses: [terminated('a', 0, 'Completed'), running('b', false)],
      containerStatuses: [waiting('app', 'PodInitializing')],
    },
    expect: 'Init:1/2',
  },
  {
    name: 'init-error',
    spec: { restartPolicy: 'Never', initContainers: [container('a')] },
    status: {
      phase: 'Failed',
      initContainerStatuses: [terminated('a', 1, 'Error')],
      containerStatuses: [waiting('app', 'PodInitializing')],
    },
    expect: 'Init:Error',
  },
  {
    name: 'init-crashloop',
    spec: { initContainers: [container('a')] },
    status: {
      phase: 'Pending',
      initContainerStatuses: [waiting('a', 'CrashLoopBackOff', { restartCount: 3, ...lastDied(2) })],
      containerStatuses: [waiting('app', 'PodInitializing')],
    },
    expect: 'Init:CrashLoopBackOff',
  },
  {
    name: 'crashloop',
    status: {
      phase: 'Running',
      conditions: conditions({ Ready: 'False' }),
      containerStatuses: [waiting('app', 'CrashLoopBackOff', { restartCount: 5, ...lastDied(3) })],
    },
    expect: 'CrashLoopBackOff',
  },
  {
    name: 'oomkilled-before',
    status: {
      phase: 'Running',
      conditions: conditions({ Ready: 'True' }),
      containerStatuses: [running('app', true, { restartCount: 1, ...lastDied(130, 'OOMKilled', 137) })],
    },
    expect: 'Running',
  },
  {
    name: 'oomkilled',
    spec: { restartPolicy: 'Never' },
    status: { phase: 'Failed', containerStatuses: [terminated('app', 137, 'OOMKilled')] },
    expect: 'OOMKilled',
  },
  {
    name: 'completed',
    spec: { restartPolicy: 'Never' },
    status: { phase: 'Succeeded', containerStatuses: [terminated('app', 0, 'Completed')] },
    expect: 'Completed',
  },
  {
    name: 'failed',
    spec: { restartPolicy: 'Never' },
    status: { phase: 'Failed', containerStatuses: [terminated('app', 2, 'Error')] },
    expect: 'Error',
  },
  {
    name: 'evicted',
    status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' },
    expect: 'Evicted',
  },
  {
    name: 'not-ready',
    spec: { readinessGates: [{ conditionType: 'binnacle.dev/gate' }] },
    status: {
      phase: 'Running',
      podIP: '10.250.0.7',
      podIPs: [{ ip: '10.250.0.7' }],
      conditions: conditions({ Ready: 'False', 'binnacle.dev/gate': 'True' }),
      containerStatuses: [running('app', false)],
    },
    expect: 'Running',
  },
  {
    name: 'half-done',
    spec: { containers: [container('a'), container('b')] },
    status: {
      phase: 'Running',
      conditions: conditions({ Ready: 'False' }),
      containerStatuses: [terminated('a', 0, 'Completed'), running('b', true)],
    },
    expect: 'NotReady',
  },
  {
    name: 'err-image-pull',
    status: { phase: 'Pending', containerStatuses: [waiting('app', 'ErrImagePull')] },
    expect: 'ErrImagePull',
  },
  {
    name: 'image-pull-backoff',
    status: { phase: 'Pending', containerStatuses: [waiting('app', 'ImagePullBackOff')] },
    expect: 'ImagePullBackOff',
  },
  {
    name: 'creating',
    status: { phase: 'Pending', containerStatuses: [waiting('app', 'ContainerCreating')] },
    expect: 'ContainerCreating',
  },
  {
    name: 'sidecar',
    spec: { initContainers: [{ ...container('proxy'), restartPolicy: 'Always' }] },
    status: {
      phase: 'Running',
      conditions: conditions({ Initialized: 'True', Ready: 'True' }),
      initContainerStatuses: [running('proxy', true, { restartCount: 2, ...lastDied(7) })],
      containerStatuses: [running('app', true)],
    },
    expect: 'Running',
  },
  {
    name: 'terminating',
    status: {
      phase: 'Running',
      conditions: conditions({ Ready: 'True' }),
      containerStatuses: [running('app', true)],
    },
    expect: 'Terminating',
  },
  { name: 'unschedulable', spec: { nodeSelector: { 'binnacle.dev/nowhere': 'true' } }, expect: 'Pending' },
  { name: 'gated', spec: { schedulingGates: [{ name: 'binnacle.dev/hold' }] }, expect: 'SchedulingGated' },
];

function podObject({ name, spec = {}, status }: PodCase): KubeObject {
  const bound = status !== undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: { case: name },
      ...(name === 'terminating' ? { finalizers: ['binnacle.dev/hold'] } : {}),
    },
    spec: {
      containers: [container('app')],
      terminationGracePeriodSeconds: 600,
      ...(bound ? { nodeName: absentNode } : {}),
      ...spec,
    },
  };
}

const labels = { app: 'web', tier: 'front' };
const template = {
  metadata: { labels },
  spec: { containers: [container('web'), { name: 'log', image: 'registry.example/log:2' }] },
};
const selector = { matchLabels: labels };

function namespacedObjects(): KubeObject[] {
  const objects: KubeObject[] = [
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', default: { memory: '64Mi' } }] },
    },
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'quota' },
      spec: {
        hard: { pods: '20', 'requests.cpu': '2', 'limits.memory': '1Gi' },
        // Counts only pods of a priority class nothing uses, so it never refuses this test's pods.
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['binnacle-unused'] }],
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'config' },
      data: { a: '1', b: '2' },
      binaryData: { c: 'AA==' },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'secret' },
      type: 'Opaque',
      data: { user: 'dQ==', pass: 'cA==' },
    },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: {
        selector: labels,
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
        externalIPs: ['192.0.2.10'],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'nodeport' },
      spec: { type: 'NodePort', selector: labels, ports: [{ port: 443 }] },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'balancer' },
      spec: { type: 'LoadBalancer', ports: [{ port: 8443 }], allocateLoadBalancerNodePorts: false },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'external' },
      spec: { type: 'ExternalName', externalName: 'db.example.com' },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'manual' }, spec: { ports: [{ port: 9000 }] } },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'manual' },
      subsets: [
        {
          addresses: ['10.1.0.1', '10.1.0.2', '10.1.0.3'].map((ip) => ({ ip })),
          ports: [
            { name: 'a', port: 9000 },
            { name: 'b', port: 9001 },
          ],
        },
      ],
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'manual-slice', labels: { 'kubernetes.io/service-name': 'manual' } },
      addressType: 'IPv4',
      ports: [
        { name: 'a', port: 9000 },
        { name: 'named' },
        { name: 'c', port: 9002 },
        { name: 'd', port: 9003 },
      ],
      endpoints: [{ addresses: ['10.1.0.1'] }, { addresses: ['10.1.0.2'] }],
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 2, selector, template },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [container('db')] } },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: {
          matchLabels: { app: 'agent' },
          matchExpressions: [
            { key: 'tier', operator: 'In', values: ['b', 'a'] },
            { key: 'old', operator: 'DoesNotExist' },
          ],
        },
        template: {
          metadata: { labels: { app: 'agent', tier: 'a' } },
          spec: { nodeSelector: { 'binnacle.dev/agent': 'yes' }, containers: [container('agent')] },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy' },
      spec: {
        replicas: 1,
        selector: { app: 'legacy' },
        template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [container('legacy')] } },
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'batch' },
      spec: {
        completions: 1,
        template: { spec: { restartPolicy: 'Never', containers: [container('work')] } },
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'suspended' },
      spec: {
        suspend: true,
        parallelism: 3,
        template: { spec: { restartPolicy: 'Never', containers: [container('work')] } },
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly' },
      spec: {
        schedule: '0 3 * * *',
        timeZone: 'Etc/UTC',
        suspend: true,
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [container('work')] } } },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'template' },
      template,
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
          },
          {
            type: 'Pods',
            pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
          },
          {
            type: 'Resource',
            resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '200Mi' } },
          },
        ],
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: { minAvailable: 1, selector },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db' },
      spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'db' } } },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web' },
      spec: {
        ingressClassName: unique('edge'),
        tls: [{ hosts: ['a.example.com'], secretName: 'secret' }],
        rules: ['a', 'b', 'c', 'd'].map((host) => ({
          host: `${host}.example.com`,
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
            ],
          },
        })),
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'catch-all' },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'web' },
      spec: {
        podSelector: {
          matchLabels: labels,
          matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }],
        },
        policyTypes: ['Ingress'],
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny-all' },
      spec: { podSelector: {}, policyTypes: ['Ingress'] },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'readers' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'ada' },
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' },
        { kind: 'ServiceAccount', name: 'robot', namespace: 'elsewhere' },
      ],
    },
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'leader' },
      spec: { holderIdentity: 'web-0_1234', leaseDurationSeconds: 15 },
    },
    { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'free' }, spec: {} },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: {
        accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
        storageClassName: unique('slow'),
        resources: { requests: { storage: '2Gi' } },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'bound' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: '',
        volumeName: unique('pv'),
        resources: { requests: { storage: '1Gi' } },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.manual' },
      involvedObject: {
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        namespace,
        name: 'web',
        fieldPath: 'spec.replicas',
      },
      reason: 'Tested',
      message: '  printed by the conformance test  ',
      type: 'Warning',
      count: 3,
      firstTimestamp: minutesAgo(50),
      lastTimestamp: minutesAgo(2),
      source: { component: 'binnacle', host: 'host-1' },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.fresh' },
      involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace, name: 'crashloop' },
      reason: 'Fresh',
      message: 'no timestamps but the event time',
      type: 'Normal',
      eventTime: `${minutesAgo(1).slice(0, -1)}.123456Z`,
      reportingComponent: 'binnacle-reporter',
      reportingInstance: 'reporter-1',
      action: 'Test',
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'capacity' },
      storageClassName: unique('slow'),
      capacity: '10Gi',
      nodeTopology: { matchLabels: { zone: 'a' } },
    },
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'gpu' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: unique('gpu') } }] } },
    },
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'gpu' },
      spec: {
        spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: unique('gpu') } }] } },
      },
    },
    ...podCases.map(podObject),
  ];
  return objects;
}

function clusterObjects(csr: string): KubeObject[] {
  const webhook = (name: string) => ({
    name: `${name}.binnacle.dev`,
    clientConfig: { url: 'https://127.0.0.1:9/never' },
    // Matches nothing that exists: a resource no API serves, in this test's namespace only.
    rules: [{ apiGroups: [crdGroup], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nothing'] }],
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
    failurePolicy: 'Ignore',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
  });
  const crd = (plural: string, kind: string, columns: object[] | undefined) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${crdGroup}` },
    spec: {
      group: crdGroup,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          ...(columns ? { additionalPrinterColumns: columns } : {}),
        },
      ],
    },
  });
  return [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: unique('pv') },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        claimRef: { namespace, name: 'bound' },
        hostPath: { path: '/tmp/binnacle-printers' },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: unique('pv-block'),
        annotations: { 'volume.beta.kubernetes.io/storage-class': 'beta' },
      },
      spec: {
        capacity: { storage: '500Mi' },
        accessModes: ['ReadWriteOncePod'],
        volumeMode: 'Block',
        csi: { driver: unique('csi.binnacle.dev'), volumeHandle: 'h1' },
      },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: unique('slow') },
      provisioner: 'binnacle.dev/none',
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowVolumeExpansion: true,
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: unique('csi.binnacle.dev') },
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        tokenRequests: [{ audience: 'vault' }, { audience: 'api' }],
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
      },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: unique('csinode') },
      spec: { drivers: [{ name: unique('csi.binnacle.dev'), nodeID: 'n1' }] },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: unique('attachment') },
      spec: {
        attacher: unique('csi.binnacle.dev'),
        nodeName: absentNode,
        source: { persistentVolumeName: unique('pv-block') },
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: unique('edge') },
      spec: {
        controller: 'binnacle.dev/edge',
        parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'edge', scope: 'Cluster' },
      },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: unique('viewer') },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: unique('viewers') },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: unique('viewer') },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'auditors' }],
    },
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: unique('batch') },
      value: 1000,
      preemptionPolicy: 'Never',
      description: 'conformance',
    },
    {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: unique('sandboxed') },
      handler: 'runsc',
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: unique('mutate') },
      webhooks: [webhook('a'), webhook('b')],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: unique('validate') },
      webhooks: [webhook('c')],
    },
    {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: unique('csr-pending') },
      spec: {
        request: csr,
        signerName: 'example.com/binnacle',
        usages: ['client auth'],
        expirationSeconds: 7200,
      },
    },
    {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: unique('csr-denied') },
      spec: { request: csr, signerName: 'example.com/binnacle', usages: ['client auth'] },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: unique('policy') },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          resourceRules: [
            { apiGroups: [crdGroup], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nothing'] },
          ],
        },
        validations: [{ expression: 'true' }, { expression: '1 == 1' }],
      },
    },
    ...[
      ['policy-local', { name: 'config', namespace, parameterNotFoundAction: 'Allow' }],
      ['policy-any', { name: 'config', parameterNotFoundAction: 'Allow' }],
    ].map(([name, paramRef]) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: unique(String(name)) },
      spec: { policyName: unique('policy'), paramRef, validationActions: ['Audit'] },
    })),
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttributesClass',
      metadata: { name: unique('gold') },
      driverName: unique('csi.binnacle.dev'),
      parameters: { iops: '1000' },
    },
    { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: unique('gpu') }, spec: {} },
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: unique('slice') },
      spec: {
        driver: 'gpu.binnacle.dev',
        pool: { name: 'pool-a', generation: 1, resourceSliceCount: 1 },
        nodeName: absentNode,
        devices: [{ name: 'gpu-0' }],
      },
    },
    crd('widgets', 'Widget', [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
      { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
      // client-go reads `['a.b']` as `.a.b`: this one prints empty, the escaped one below the label.
      { name: 'Owner', type: 'string', jsonPath: ".metadata.labels['app.kubernetes.io/name']" },
      { name: 'Label', type: 'string', jsonPath: '.metadata.labels.app\\.kubernetes\\.io/name' },
      { name: 'Rest', type: 'string', jsonPath: '.spec.items[1:].name' },
      { name: 'Tags', type: 'string', jsonPath: '.spec.tags' },
      { name: 'First', type: 'string', jsonPath: '.spec.items[*].name' },
      { name: 'Last', type: 'string', jsonPath: '.spec.items[-1].name' },
      { name: 'Since', type: 'date', jsonPath: '.status.since' },
      { name: 'Mode', type: 'string', jsonPath: '.spec.mode', priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]),
    crd('gadgets', 'Gadget', undefined),
  ];
}

const customObjects = (): KubeObject[] => [
  {
    apiVersion: `${crdGroup}/v1`,
    kind: 'Widget',
    metadata: { name: 'full', labels: { 'app.kubernetes.io/name': 'shop' } },
    spec: {
      replicas: 3,
      ratio: 2500000,
      enabled: true,
      tags: { b: ['x'], a: '<y>' },
      items: [{ name: 'one' }, { name: 'two' }],
      mode: 'fast',
    },
    status: {
      since: minutesAgo(30),
      conditions: [
        { type: 'Synced', status: 'False' },
        { type: 'Ready', status: 'True' },
      ],
    },
  },
  {
    apiVersion: `${crdGroup}/v1`,
    kind: 'Widget',
    metadata: { name: 'sparse' },
    spec: { ratio: 1234567.5, replicas: 'three', enabled: 'yes', tags: ['a', 'b'] },
    status: { since: 'yesterday' },
  },
  { apiVersion: `${crdGroup}/v1`, kind: 'Gadget', metadata: { name: 'gizmo' } },
];

// ---- reading kubectl's table -------------------------------------------------------------------------------

interface TextTable {
  headers: string[];
  rows: string[][];
}

/** kubectl pads columns with at least three spaces; header names hold single spaces (NOMINATED NODE). */
function parseTable(text: string): TextTable {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const header = lines[0] ?? '';
  const starts = [...header.matchAll(/\S+(?: \S+)*/g)].map((match) => match.index);
  const headers = [...header.matchAll(/\S+(?: \S+)*/g)].map((match) => match[0]);
  const rows = lines
    .slice(1)
    .map((line) => starts.map((start, i) => line.slice(start, starts[i + 1] ?? line.length).trim()));
  return { headers, rows };
}

/** What kubectl shows of a cell: a multi-line value up to its first line break, then `...`. */
function shown(text: string): string {
  const cut = text.search(/[\n\r\f]/);
  return cut < 0 ? text : `${text.slice(0, cut)}...`;
}

/** A relative cell matches if it printed so at some moment around the two reads (±2 s). */
function cellMatches(cell: TableCell, text: string, from: number, to: number): boolean {
  if (!isRelativeTime(cell)) return shown(cellText(cell, from)) === text;
  for (let at = from - 2000; at <= to + 2000; at += 250) if (cellText(cell, at) === text) return true;
  return false;
}

const keyOf = (object: KubeObject) => `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
const versions = (list: KubeObject[]) =>
  list.map((o) => `${keyOf(o)}@${o.metadata?.resourceVersion}`).join(',');

interface Case {
  kind: string;
  /** Where to look: a namespace, every namespace, or these cluster-scoped names. */
  scope: { namespace: string } | { all: true } | { names: string[] };
}

async function list(resource: ApiResource, scope: Case['scope']): Promise<KubeObject[]> {
  const namespaced = 'namespace' in scope ? scope.namespace : undefined;
  const items = (await client.request<KubeList>({ path: collectionPath(resource, namespaced) })).items ?? [];
  if (!('names' in scope)) return items;
  return items.filter((item) => scope.names.includes(item.metadata?.name ?? ''));
}

/**
 * Prints the kind both ways from one consistent state: retried while objects change between the reads. `extend`
 * adds columns after kubectl's (an ecosystem kind's health, ADR 0126): kubectl's must then be ours up to there.
 */
async function compare(
  { kind, scope }: Case,
  extend?: (printer: Printer, resource: ApiResource) => Printer,
): Promise<{ rows: number; statuses: string[]; added: string[] }> {
  const resource = resolveKind(
    resources,
    kind.split('.')[0] ?? kind,
    kind.split('.').slice(1).join('.') || undefined,
  );
  const kubectlPrinter = printerFor(resource, await crdOf(resource));
  const printer = extend ? extend(kubectlPrinter, resource) : kubectlPrinter;
  const where = 'namespace' in scope ? ['-n', scope.namespace] : 'all' in scope ? [] : scope.names;
  for (let attempt = 1; ; attempt++) {
    const before = await list(resource, scope);
    const from = Date.now();
    const text = await kubectl(['get', kind, ...where, '-o', 'wide']);
    const to = Date.now();
    const after = await list(resource, scope);
    if (versions(before) !== versions(after) && attempt < 20) continue;
    const table = parseTable(text);
    const nameAt = table.headers.indexOf('NAME');
    const namespaceAt = table.headers.indexOf('NAMESPACE');
    const all = printer.columns.map((column) => column.name);
    // The object's NAME and NAMESPACE lead; a CRD may print a column of the same name (a PolicyReport's NAME).
    const kubectlColumns = table.headers.flatMap((header, at) =>
      at === nameAt || at === namespaceAt ? [] : [{ header, at }],
    );
    const theirs = kubectlColumns.map(({ header }) => header);
    const ours = all.slice(0, theirs.length);
    expect(theirs).toEqual(extend ? ours : all);
    const columnAt = kubectlColumns.map(({ at }) => at);
    expect(table.rows.length).toBe(after.length);
    const statuses: string[] = [];
    for (const row of table.rows) {
      const key = `${namespaceAt < 0 ? ('namespace' in scope ? scope.namespace : '') : row[namespaceAt]}/${row[nameAt]}`;
      const object = after.find((item) => keyOf(item) === key);
      expect(object, `kubectl printed ${key}`).toBeDefined();
      const printed = printer.print(object as KubeObject);
      const mismatches = printed.cells.slice(0, ours.length).flatMap((cell, i) => {
        const text = row[columnAt[i] ?? -1] ?? '';
        return cellMatches(cell, text, from, to)
          ? []
          : [`${ours[i]}: kubectl "${text}", ours "${cellText(cell, to)}"`];
      });
      expect(mismatches, key).toEqual([]);
      if (printed.status) statuses.push(`${row[nameAt]}=${printed.status.text}`);
    }
    return { rows: table.rows.length, statuses, added: all.slice(theirs.length) };
  }
}

const crds = new Map<string, KubeObject | undefined>();
async function crdOf(resource: ApiResource): Promise<KubeObject | undefined> {
  const name = `${resource.plural}.${resource.group}`;
  if (!resource.group.includes('.')) return undefined;
  // As the tables' service: a kind of a `.k8s.io` group may be a CRD's too (Gateway API's).
  if (!crds.has(name)) {
    const crd = await client
      .request<KubeObject>({ path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}` })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return undefined;
        throw error;
      });
    crds.set(name, crd);
  }
  return crds.get(name);
}

// ---- set-up ------------------------------------------------------------------------------------------------

const clusterNames = (kind: string) => () =>
  clusterObjects('')
    .filter((object) => object.kind === kind)
    .map((object) => object.metadata?.name ?? '');

beforeAll(async () => {
  const created = await cluster.namespace('printers');
  namespace = created.name;
  removeNamespace = created.remove;
  const { stdout: csr } = await run('openssl', [
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    '/dev/null',
    '-subj',
    `/CN=binnacle-${suffix}`,
  ]);
  const request = Buffer.from(csr).toString('base64');
  const items = [
    ...clusterObjects(request),
    ...namespacedObjects().map((object) => ({
      ...object,
      metadata: { ...object.metadata, namespace },
    })),
  ];
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  await kubectl([
    'wait',
    '--for=condition=Established',
    '--timeout=30s',
    `crd/widgets.${crdGroup}`,
    `crd/gadgets.${crdGroup}`,
  ]);
  resources = await discover(client);
  await kubectl(
    ['create', '-n', namespace, '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: customObjects() }),
  );
  // Exact pod states, written where a kubelet would write them; the pods' node has no kwok behind it.
  await Promise.all(
    podCases
      .filter((podCase) => podCase.status)
      .map((podCase) =>
        client.request({
          method: 'PATCH',
          path: `/api/v1/namespaces/${namespace}/pods/${podCase.name}/status`,
          contentType: 'application/merge-patch+json',
          body: { status: podCase.status },
        }),
      ),
  );
  await client.request({
    method: 'DELETE',
    path: `/api/v1/namespaces/${namespace}/pods/terminating`,
  });
  await kubectl(['certificate', 'deny', unique('csr-denied')]);
  const ready = async (path: string, done: (object: KubeObject) => boolean) =>
    done(await client.request<KubeObject>({ path }));
  const status = (object: KubeObject) => object.status ?? {};
  await waitUntil(
    'the workloads settled',
    async () =>
      (await ready(
        `/apis/apps/v1/namespaces/${namespace}/deployments/web`,
        (d) => status(d).readyReplicas === 2,
      )) &&
      (await ready(
        `/apis/apps/v1/namespaces/${namespace}/statefulsets/db`,
        (s) => status(s).readyReplicas === 1,
      )) &&
      (await ready(`/apis/batch/v1/namespaces/${namespace}/jobs/batch`, (j) => status(j).succeeded === 1)) &&
      (await ready(
        `/api/v1/namespaces/${namespace}/resourcequotas/quota`,
        (q) => status(q).used !== undefined,
      )) &&
      (await ready(`/api/v1/namespaces/${namespace}/pods/gated`, (p) =>
        JSON.stringify(status(p).conditions ?? []).includes('SchedulingGated'),
      )) &&
      (await ready(`/api/v1/namespaces/${namespace}/pods/unschedulable`, (p) =>
        JSON.stringify(status(p).conditions ?? []).includes('Unschedulable'),
      )),
    { timeoutMs: 45_000, intervalMs: 250 },
  );
}, 90_000);

afterAll(async () => {
  await client
    .request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${namespace}/pods/terminating`,
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    })
    // The pod garbage collector may have removed it already: its node does not exist.
    .catch(() => undefined);
  await kubectl(
    ['delete', '--wait=false', '--ignore-not-found', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: clusterObjects(''),
    }),
  );
  await removeNamespace();
  await client.close();
});

// ---- the cases ---------------------------------------------------------------------------------------------

const inNamespace = (kind: string): Case => ({ kind, scope: { namespace } });
const named = (kind: string, objectKind: string): Case => ({
  kind,
  scope: { names: clusterNames(objectKind)() },
});

describe('kubectl get -o wide and our printers agree', () => {
  it('on every tricky pod state', async () => {
    const { statuses } = await compare(inNamespace('pods'));
    const expected = podCases.map((podCase) => `${podCase.name}=${podCase.expect}`);
    expect(statuses).toEqual(expect.arrayContaining(expected));
  });

  it.each([
    'podtemplates',
    'replicationcontrollers',
    'replicasets.apps',
    'deployments.apps',
    'statefulsets.apps',
    'daemonsets.apps',
    'controllerrevisions.apps',
    'jobs.batch',
    'cronjobs.batch',
    'services',
    'endpoints',
    'endpointslices.discovery.k8s.io',
    'ingresses.networking.k8s.io',
    'networkpolicies.networking.k8s.io',
    'configmaps',
    'secrets',
    'serviceaccounts',
    'events',
    'events.events.k8s.io',
    'persistentvolumeclaims',
    'resourcequotas',
    'limitranges',
    'horizontalpodautoscalers.autoscaling',
    'poddisruptionbudgets.policy',
    'roles.rbac.authorization.k8s.io',
    'rolebindings.rbac.authorization.k8s.io',
    'leases.coordination.k8s.io',
    'csistoragecapacities.storage.k8s.io',
    'resourceclaims.resource.k8s.io',
    'resourceclaimtemplates.resource.k8s.io',
  ])('%s', async (kind) => {
    expect((await compare(inNamespace(kind))).rows).toBeGreaterThan(0);
  });

  it.each([
    ['persistentvolumes', 'PersistentVolume'],
    ['storageclasses.storage.k8s.io', 'StorageClass'],
    ['csidrivers.storage.k8s.io', 'CSIDriver'],
    ['csinodes.storage.k8s.io', 'CSINode'],
    ['volumeattachments.storage.k8s.io', 'VolumeAttachment'],
    ['ingressclasses.networking.k8s.io', 'IngressClass'],
    ['clusterroles.rbac.authorization.k8s.io', 'ClusterRole'],
    ['clusterrolebindings.rbac.authorization.k8s.io', 'ClusterRoleBinding'],
    ['priorityclasses.scheduling.k8s.io', 'PriorityClass'],
    ['runtimeclasses.node.k8s.io', 'RuntimeClass'],
    ['mutatingwebhookconfigurations.admissionregistration.k8s.io', 'MutatingWebhookConfiguration'],
    ['validatingwebhookconfigurations.admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'],
    ['certificatesigningrequests.certificates.k8s.io', 'CertificateSigningRequest'],
    ['customresourcedefinitions.apiextensions.k8s.io', 'CustomResourceDefinition'],
    ['validatingadmissionpolicies.admissionregistration.k8s.io', 'ValidatingAdmissionPolicy'],
    ['validatingadmissionpolicybindings.admissionregistration.k8s.io', 'ValidatingAdmissionPolicyBinding'],
    ['volumeattributesclasses.storage.k8s.io', 'VolumeAttributesClass'],
    ['deviceclasses.resource.k8s.io', 'DeviceClass'],
    ['resourceslices.resource.k8s.io', 'ResourceSlice'],
  ])('%s', async (kind, objectKind) => {
    expect((await compare(named(kind, objectKind))).rows).toBeGreaterThan(0);
  });

  it.each([
    'nodes',
    'flowschemas.flowcontrol.apiserver.k8s.io',
    'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io',
    'apiservices.apiregistration.k8s.io',
    'servicecidrs.networking.k8s.io',
    'ipaddresses.networking.k8s.io',
  ])('every one of the cluster: %s', async (kind) => {
    expect((await compare({ kind, scope: { all: true } })).rows).toBeGreaterThan(0);
  });

  it('namespaces', async () => {
    expect((await compare({ kind: 'namespaces', scope: { names: [namespace] } })).rows).toBe(1);
  });

  it.each(['widgets', 'gadgets'])('custom resources: %s', async (plural) => {
    expect((await compare(inNamespace(`${plural}.${crdGroup}`))).rows).toBeGreaterThan(0);
  });

  it.each([
    ['applications.argoproj.io', 'argocd'],
    ['appprojects.argoproj.io', 'argocd'],
    ['gitrepositories.source.toolkit.fluxcd.io', 'flux-system'],
    ['kustomizations.kustomize.toolkit.fluxcd.io', 'flux-system'],
    ['helmrepositories.source.toolkit.fluxcd.io', 'flux-system'],
    ['helmreleases.helm.toolkit.fluxcd.io', 'flux-system'],
  ])('seeded custom resources: %s', async (kind, where) => {
    expect((await compare({ kind, scope: { namespace: where } })).rows).toBeGreaterThan(0);
  });
});

// ---- the ecosystem's kinds ---------------------------------------------------------------------------------

/** Every kind the ecosystem's state fixtures hold objects of, as `Kind.group`, and whether it is namespaced. */
const ecosystemKinds = [
  ...new Map(
    Object.values(ecosystemStates('x', 'x'))
      .flat()
      .map(({ object }) => [
        `${object.kind}.${groupOf(object.apiVersion)}`,
        object.metadata?.namespace !== undefined,
      ]),
  ),
];

/**
 * The projects' real CRDs (ADR 0127) with their objects in each state: kubectl prints the CRD's
 * additionalPrinterColumns, and ours are the same, cell by cell, followed by the project's operator fields and the
 * health columns (`withHealthColumns`, the tables' printer of every custom resource).
 */
describe("the ecosystem's kinds: kubectl get -o wide's columns, then ours, health last", () => {
  let planted: PlantedStates | undefined;
  let ecoNamespace = '';
  let removeEcoNamespace: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const created = await cluster.namespace('printers-eco');
    ecoNamespace = created.name;
    removeEcoNamespace = created.remove;
    planted = await plantEcosystemStates(cluster.kubeconfigPath('admin'), ecoNamespace, `p${suffix}`);
    resources = await discover(client);
  }, 60_000);
  afterAll(async () => {
    await planted?.remove();
    await removeEcoNamespace();
  });

  it.each(ecosystemKinds)('%s', async (kindGroup, namespaced) => {
    const states = Object.values(planted?.states ?? {}).flat();
    const objects = states.filter(
      ({ object }) => `${object.kind}.${groupOf(object.apiVersion)}` === kindGroup,
    );
    const resource = planted?.resourceOf((objects[0] as (typeof objects)[number]).object) as ApiResource;
    const kind = `${resource.plural}.${resource.group}`;
    const scope = namespaced
      ? { namespace: ecoNamespace }
      : { names: objects.map(({ object }) => object.metadata?.name ?? '') };
    const withHealth = (printer: Printer, r: ApiResource) => withHealthColumns(printer, r.group, r.kind);
    const { rows, added } = await compare({ kind, scope }, withHealth);
    expect(rows).toBe(objects.length);
    expect(added.slice(-3)).toEqual(['HEALTH', 'HEALTH REASON', 'HEALTH MESSAGE']);
  });
});
