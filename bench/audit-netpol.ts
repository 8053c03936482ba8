import { performance } from 'node:perf_hooks';
import type { KubeObject } from '@binnacle/common';
import { reachabilityMatrix } from '../packages/agent/src/features/netpol/matrix.ts';
import { AuditEngine, type AuditSource } from '../packages/agent/src/scope/audit/engine.ts';
import type { BenchResult } from './run.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function timed<T>(work: () => T): [T, number] {
  const start = performance.now();
  const result = work();
  return [result, performance.now() - start];
}

const container = (name: string) => ({
  name,
  image: `registry.example/${name}:1.0.${name.length}`,
  resources: { requests: { cpu: '50m', memory: '64Mi' } },
});

/**
 * A cluster of `namespaces` namespaces, each with `deployments` Deployments of `replicas` pods (through a
 * ReplicaSet), a Service and a ConfigMap per Deployment, and one PodDisruptionBudget: the objects the informer cache
 * would hold, built in memory so the audit engine alone is measured.
 */
function syntheticCluster(namespaces: number, deployments: number, replicas: number): KubeObject[] {
  const objects: KubeObject[] = [];
  let made = 0;
  const meta = (namespace: string, name: string, extra: Record<string, unknown> = {}) => ({
    namespace,
    name,
    uid: `uid-${made++}`,
    resourceVersion: '1',
    ...extra,
  });
  for (let n = 0; n < namespaces; n += 1) {
    const namespace = `bench-${n}`;
    objects.push({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta(namespace, 'pdb'),
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'app-0' } } },
    });
    for (let d = 0; d < deployments; d += 1) {
      const app = `app-${d}`;
      const template = { metadata: { labels: { app } }, spec: { containers: [container(app)] } };
      const deployment: KubeObject = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: meta(namespace, app, { labels: { app } }),
        spec: { replicas, selector: { matchLabels: { app } }, template },
      };
      const rsMeta = meta(namespace, `${app}-5d8f`, {
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: app,
            uid: deployment.metadata?.uid ?? '',
            controller: true,
          },
        ],
      });
      const replicaSet: KubeObject = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: rsMeta,
        spec: { replicas, selector: { matchLabels: { app } }, template },
      };
      objects.push(deployment, replicaSet);
      objects.push({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta(namespace, app),
        spec: { selector: { app }, ports: [{ port: 80 }] },
      });
      objects.push({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: meta(namespace, `${app}-config`),
        data: { LOG_LEVEL: 'info' },
      });
      for (let r = 0; r < replicas; r += 1)
        objects.push({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: meta(namespace, `${app}-5d8f-${r}`, {
            labels: { app },
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: rsMeta.name,
                uid: rsMeta.uid,
                controller: true,
              },
            ],
          }),
          spec: { ...template.spec, nodeName: `node-${r % 50}` },
          status: {
            phase: 'Running',
            podIP: `10.${n}.${d}.${r}`,
            conditions: [{ type: 'Ready', status: 'True' }],
          },
        });
    }
  }
  return objects;
}

/** The audit's source over an array the benchmark changes, telling the engine of each change as the cache would. */
function memorySource(objects: KubeObject[]): AuditSource & { change(index: number): void } {
  const listeners: ((object: KubeObject, deleted: boolean) => void)[] = [];
  return {
    snapshot: () => ({ objects, loading: [] }),
    servedApiVersions: () => [
      'v1',
      'apps/v1',
      'batch/v1',
      'policy/v1',
      'networking.k8s.io/v1',
      'autoscaling/v2',
    ],
    onChange: (listener) => {
      listeners.push(listener);
    },
    change(index) {
      const was = objects[index] as KubeObject;
      const next = {
        ...was,
        metadata: { ...was.metadata, resourceVersion: String(Number(was.metadata?.resourceVersion) + 1) },
      };
      objects[index] = next;
      for (const listener of listeners) listener(next, false);
    },
  };
}

/** 200 pods in one namespace under 20 policies with a mix of pod, namespace and port rules, both directions. */
function policyNamespace() {
  const namespace = 'matrix';
  const pods = Array.from({ length: 200 }, (_, i) => ({
    kind: 'Pod',
    metadata: { namespace, name: `pod-${i}`, labels: { app: `app-${i % 10}`, tier: i % 2 ? 'web' : 'db' } },
    spec: { containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 }] }] },
    status: { podIP: `10.1.${Math.floor(i / 250)}.${i % 250}`, phase: 'Running' },
  }));
  const policies = Array.from({ length: 20 }, (_, i) => ({
    kind: 'NetworkPolicy',
    metadata: { namespace, name: `policy-${i}` },
    spec: {
      podSelector: { matchLabels: { app: `app-${i % 10}` } },
      policyTypes: i % 3 === 0 ? ['Ingress', 'Egress'] : ['Ingress'],
      ingress: [
        {
          from: [{ podSelector: { matchLabels: { tier: i % 2 ? 'web' : 'db' } } }],
          ports: [{ port: i % 2 ? 'http' : 80 }],
        },
        { from: [{ namespaceSelector: { matchLabels: { team: 'ops' } } }] },
      ],
      ...(i % 3 === 0
        ? { egress: [{ to: [{ podSelector: {} }], ports: [{ port: 8080, endPort: 8090 }] }] }
        : {}),
    },
  }));
  return {
    namespaces: [
      {
        kind: 'Namespace',
        metadata: { name: namespace, labels: { 'kubernetes.io/metadata.name': namespace } },
      },
    ],
    pods,
    services: [],
    policies,
  };
}

/** The full audit and the re-check after one change at 10 000 pods; the reachability matrix of 200 pods × 20 policies. */
export function auditNetpol(): Promise<BenchResult> {
  const objects = syntheticCluster(100, 10, 10);
  const pods = objects.filter((o) => o.kind === 'Pod').length;
  log(`${objects.length} objects, ${pods} pods`);
  const source = memorySource(objects);
  const engine = new AuditEngine(source);
  const scope = { settings: { ignoredNamespaces: [], disabledChecks: [] } };
  const [cold, coldMs] = timed(() => engine.run(scope));
  const warm = Array.from({ length: 5 }, () => timed(() => engine.run(scope))[1]);
  const podIndexes = objects.flatMap((o, i) => (o.kind === 'Pod' ? [i] : []));
  const afterChange = Array.from({ length: 20 }, (_, i) => {
    source.change(podIndexes[(i * 499) % podIndexes.length] as number);
    return timed(() => engine.run(scope))[1];
  });
  const snapshot = policyNamespace();
  const matrix = Array.from(
    { length: 5 },
    () => timed(() => reachabilityMatrix(snapshot, 'matrix', { port: 8080 }))[1],
  );
  const data = {
    objects: objects.length,
    pods,
    findings: cold.findings.length,
    fullAuditMs: round(coldMs),
    warmAuditMedianMs: round(median(warm)),
    recheckAfterOnePodChangeMedianMs: round(median(afterChange)),
    recheckAfterOnePodChangeMaxMs: round(Math.max(...afterChange)),
    matrixPods: 200,
    matrixPolicies: 20,
    matrixMedianMs: round(median(matrix)),
  };
  return Promise.resolve({
    name: 'audit-netpol',
    summary: `audit of ${pods} pods (${objects.length} objects, ${data.findings} findings): full ${data.fullAuditMs} ms, unchanged ${data.warmAuditMedianMs} ms, after one pod change ${data.recheckAfterOnePodChangeMedianMs} ms median (max ${data.recheckAfterOnePodChangeMaxMs}); NetworkPolicy matrix 200 pods × 20 policies ${data.matrixMedianMs} ms`,
    data,
  });
}
