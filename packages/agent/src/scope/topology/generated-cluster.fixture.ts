import type { KubeObject } from '@binnacle/common';
import type { TopologyInput } from './builder.ts';

/**
 * A generated cluster: `pods` pods over `namespaces` namespaces, `perOwner` pods per Deployment (through a
 * ReplicaSet), each Deployment with a Service and a ConfigMap; every tenth pod failing.
 */
export function generatedCluster(pods: number, perOwner: number, namespaces = 20): TopologyInput {
  const input: Record<'Deployment' | 'ReplicaSet' | 'Pod' | 'Service' | 'ConfigMap', KubeObject[]> = {
    Deployment: [],
    ReplicaSet: [],
    Pod: [],
    Service: [],
    ConfigMap: [],
  };
  const owners = Math.ceil(pods / perOwner);
  for (let d = 0; d < owners; d++) {
    const namespace = `team-${d % namespaces}`;
    const name = `app-${d}`;
    const labels = { app: name };
    const template = {
      metadata: { labels },
      spec: { containers: [{ name: 'c', image: 'nginx', envFrom: [{ configMapRef: { name } }] }] },
    };
    input.Deployment.push({
      kind: 'Deployment',
      metadata: { namespace, name, uid: `d-${d}` },
      spec: { replicas: perOwner, template },
      status: { readyReplicas: perOwner, replicas: perOwner },
    });
    input.ReplicaSet.push({
      kind: 'ReplicaSet',
      metadata: {
        namespace,
        name: `${name}-rs`,
        uid: `rs-${d}`,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name, uid: `d-${d}`, controller: true },
        ],
      },
      spec: { replicas: perOwner, template },
    });
    input.Service.push({ kind: 'Service', metadata: { namespace, name }, spec: { selector: labels } });
    input.ConfigMap.push({ kind: 'ConfigMap', metadata: { namespace, name }, data: { a: '1' } });
  }
  for (let p = 0; p < pods; p++) {
    const d = Math.floor(p / perOwner);
    const pod: KubeObject = {
      kind: 'Pod',
      metadata: {
        namespace: `team-${d % namespaces}`,
        name: `app-${d}-${p}`,
        uid: `p-${p}`,
        labels: { app: `app-${d}` },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: `app-${d}-rs`,
            uid: `rs-${d}`,
            controller: true,
          },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
      status:
        p % 10 === 0
          ? { phase: 'Failed', reason: 'Evicted' }
          : {
              phase: 'Running',
              conditions: [{ type: 'Ready', status: 'True' }],
              containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: { running: {} } }],
            },
    };
    input.Pod.push(pod);
  }
  return input;
}
