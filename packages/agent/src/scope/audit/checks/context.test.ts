import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { createAuditContext } from './context.ts';
import { container, deployment, ingress, now, object, pod, readyPod, workload } from './fixtures.ts';

const ownedBy = (kind: string, uid: string) => [
  { apiVersion: 'apps/v1', kind, name: 'owner', uid, controller: true },
];
const withMeta = (o: KubeObject, metadata: object): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, ...metadata },
});

describe('the audit context', () => {
  it('indexes objects by kind and namespace, cluster-scoped ones under ""', () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'reader' },
    };
    const context = createAuditContext([pod(), role, object('v1', 'ConfigMap', 'settings')], { now });
    expect(context.list('Pod', 'shop').map((p) => p.metadata?.name)).toEqual(['web']);
    expect(context.list('Pod', 'other')).toEqual([]);
    expect(context.get('ClusterRole', '', 'reader')).toBe(role);
    expect(context.get('Service', 'shop', 'web')).toBeUndefined();
    expect(context.now).toBe(now);
    expect(context.servedApiVersions).toBeUndefined();
  });

  it('finds a Deployment’s pods through its ReplicaSets and a CronJob’s through its Jobs', () => {
    const web = withMeta(deployment(), { uid: 'd1' });
    const replicaSet = withMeta(workload('ReplicaSet'), {
      name: 'web-7d9f',
      uid: 'rs1',
      ownerReferences: ownedBy('Deployment', 'd1'),
    });
    const webPod = withMeta(readyPod('web-7d9f-a', 'node-a'), {
      ownerReferences: ownedBy('ReplicaSet', 'rs1'),
    });
    const report = withMeta(workload('CronJob', {}, { name: 'report' }), { uid: 'c1' });
    const job = withMeta(workload('Job', {}, { name: 'report-1' }), {
      uid: 'j1',
      ownerReferences: ownedBy('CronJob', 'c1'),
    });
    const jobPod = withMeta(pod({}, { name: 'report-1-x' }), { ownerReferences: ownedBy('Job', 'j1') });
    const stranger = readyPod('web-other', 'node-b'); // matches the labels, owned by nothing
    const context = createAuditContext([web, replicaSet, webPod, report, job, jobPod, stranger], { now });
    expect(context.podsOf(web)).toEqual([webPod]);
    expect(context.podsOf(report)).toEqual([jobPod]);
    expect(context.podsOf(webPod)).toEqual([webPod]);
  });

  it('falls back on the selector for objects without a uid (manifests)', () => {
    const context = createAuditContext(
      [readyPod('web-1', 'node-a'), pod({}, { name: 'api', labels: { app: 'api' } })],
      { now },
    );
    expect(context.podsOf(deployment()).map((p) => p.metadata?.name)).toEqual(['web-1']);
    const controller = { ...workload('ReplicationController'), spec: { selector: { app: 'web' } } };
    expect(context.podsOf(controller).map((p) => p.metadata?.name)).toEqual(['web-1']);
  });

  it('knows which ConfigMaps and Secrets pods, templates, Ingresses and ServiceAccounts read', () => {
    const context = createAuditContext(
      [
        pod({
          volumes: [{ name: 'c', configMap: { name: 'pod-config' } }],
          imagePullSecrets: [{ name: 'pull' }],
        }),
        deployment({
          containers: [
            container({
              env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'a' } } }],
            }),
          ],
        }),
        ingress({ tls: [{ secretName: 'shop-tls' }] }),
        object('v1', 'ServiceAccount', 'web', { secrets: [{ name: 'sa-secret' }] }),
      ],
      { now },
    );
    for (const name of ['pull', 'env-secret', 'shop-tls', 'sa-secret'])
      expect(context.isReferenced('Secret', 'shop', name)).toBe(true);
    expect(context.isReferenced('ConfigMap', 'shop', 'pod-config')).toBe(true);
    expect(context.isReferenced('ConfigMap', 'other', 'pod-config')).toBe(false);
    expect(context.isReferenced('Secret', 'shop', 'pod-config')).toBe(false);
  });

  it('keeps the served versions and the pods’ metrics', () => {
    const usage = [{ name: 'app', cpuMillicores: 5, memoryBytes: 1024 }];
    const context = createAuditContext([], {
      now,
      servedApiVersions: ['v1', 'apps/v1'],
      podMetrics: [{ name: 'web-1', namespace: 'shop', containers: usage }],
    });
    expect(context.servedApiVersions?.has('apps/v1')).toBe(true);
    expect(context.podUsage('shop', 'web-1')).toEqual(usage);
    expect(context.podUsage('shop', 'web-2')).toBeUndefined();
  });
});
