import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { type LiveObjects, relabelled, snapshotsOf, templateMismatch } from './edit.ts';
import { selectionChanges } from './impact.ts';

const app = 'app.kubernetes.io/name';
const meta = (kind: string, name: string, namespace = 'shop', extra: object = {}) => ({
  apiVersion:
    { Deployment: 'apps/v1', ReplicaSet: 'apps/v1', NetworkPolicy: 'networking.k8s.io/v1' }[kind] ?? 'v1',
  kind,
  metadata: { name, namespace, uid: `${kind}-${name}`, ...extra },
});
const web = {
  ...meta('Deployment', 'web'),
  spec: {
    selector: { matchLabels: { [app]: 'web' } },
    template: { metadata: { labels: { [app]: 'web', tier: 'front' } } },
  },
} as KubeObject;
const replicaSet = {
  ...meta('ReplicaSet', 'web-1', 'shop', {
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'Deployment-web', controller: true },
    ],
  }),
  spec: { selector: { matchLabels: { [app]: 'web', 'pod-template-hash': '1' } } },
} as KubeObject;
const pod = (
  name: string,
  labels: Record<string, string>,
  owner?: string,
  namespace = 'shop',
): KubeObject => ({
  ...meta('Pod', name, namespace, {
    labels,
    ...(owner
      ? {
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: owner,
              uid: `ReplicaSet-${owner}`,
              controller: true,
            },
          ],
        }
      : {}),
  }),
});
const webPods = ['a', 'b'].map((n) =>
  pod(`web-1-${n}`, { [app]: 'web', tier: 'front', 'pod-template-hash': '1' }, 'web-1'),
);
const service = { ...meta('Service', 'web'), spec: { selector: { [app]: 'web' } } } as KubeObject;
const policy = {
  ...meta('NetworkPolicy', 'api-from-web'),
  spec: {
    podSelector: { matchLabels: { [app]: 'api' } },
    ingress: [
      { from: [{ podSelector: { matchLabels: { tier: 'front' } } }] },
      { from: [{ namespaceSelector: { matchLabels: { team: 'ops' } } }] },
    ],
  },
} as KubeObject;
const live = (extra: Partial<LiveObjects> = {}): LiveObjects => ({
  pods: [...webPods, pod('api-0', { [app]: 'api' }), pod('probe-0', { run: 'probe' }, undefined, 'ops')],
  namespaces: [
    { metadata: { name: 'shop', labels: {} } },
    { metadata: { name: 'ops', labels: { team: 'ops' } } },
  ],
  selecting: [web, replicaSet, service, policy],
  intermediates: [replicaSet],
  ...extra,
});
const changesOf = (before: KubeObject | undefined, after: KubeObject, objects = live()) => {
  const s = snapshotsOf({ before, after }, objects);
  return selectionChanges(s.before, s.after, s.relabelled).map((c) => ({
    what: `${c.kind} ${c.name} ${c.relation}`,
    before: c.before,
    after: c.after,
    gained: c.gained.pods.map((p) => p.name),
    lost: c.lost.pods.map((p) => p.name),
  }));
};

describe('the selection impact of an edit', () => {
  it("relabels a workload's pods with its new template: what selected the old labels loses them", () => {
    const after = structuredClone(web);
    (after.spec as { template: { metadata: { labels: object } } }).template.metadata.labels = {
      [app]: 'shopfront',
    };
    expect(changesOf(web, after)).toEqual([
      { what: 'Deployment web workload', before: 2, after: 0, gained: [], lost: ['web-1-a', 'web-1-b'] },
      {
        what: 'NetworkPolicy api-from-web policy-ingress-peer',
        before: 3,
        after: 1,
        gained: [],
        lost: ['web-1-a', 'web-1-b'],
      },
      { what: 'Service web service', before: 2, after: 0, gained: [], lost: ['web-1-a', 'web-1-b'] },
    ]);
    // The Deployment's own ReplicaSet is replaced by the rollout: not reported as losing its pods.
    expect(templateMismatch(after)).toContain('selector does not match');
    expect(templateMismatch(web)).toBeUndefined();
  });

  it("keeps the labels the controller added, replacing only the template's", () => {
    expect(
      relabelled(
        { [app]: 'web', tier: 'front', 'pod-template-hash': '1' },
        { [app]: 'web', tier: 'front' },
        { [app]: 'web' },
      ),
    ).toEqual({
      [app]: 'web',
      'pod-template-hash': '1',
    });
  });

  it('reports what an edited selector gains and loses, over every pod in its reach', () => {
    const after = { ...policy, spec: { ...policy.spec, podSelector: {} } } as KubeObject;
    expect(changesOf(policy, after)).toEqual([
      {
        what: 'NetworkPolicy api-from-web policy-target',
        before: 1,
        after: 3,
        gained: ['web-1-a', 'web-1-b'],
        lost: [],
      },
    ]);
  });

  it("follows a Namespace's labels into namespaceSelector peers", () => {
    const ops = { ...meta('Namespace', 'ops', ''), metadata: { name: 'ops', labels: {} } } as KubeObject;
    expect(changesOf(live().namespaces[1], ops)).toEqual([
      {
        what: 'NetworkPolicy api-from-web policy-ingress-peer',
        before: 3,
        after: 2,
        gained: [],
        lost: ['probe-0'],
      },
    ]);
  });

  it('counts a Pod the edit creates as gained, and reports nothing for an edit that changes no label', () => {
    const created = pod('web-extra', { [app]: 'web' });
    expect(changesOf(undefined, created).map((c) => [c.what, c.gained])).toEqual([
      ['Deployment web workload', ['web-extra']],
      ['Service web service', ['web-extra']],
    ]);
    expect(changesOf(service, structuredClone(service))).toEqual([]);
  });

  it("moves an HPA's pods with its target, and follows its target's selector", () => {
    const api = {
      ...meta('Deployment', 'api'),
      spec: {
        selector: { matchLabels: { [app]: 'api' } },
        template: { metadata: { labels: { [app]: 'api' } } },
      },
    } as KubeObject;
    const hpa = (target: string) =>
      ({
        ...meta('HorizontalPodAutoscaler', 'scaler'),
        apiVersion: 'autoscaling/v2',
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target } },
      }) as KubeObject;
    const objects = live({ selecting: [web, api, hpa('web')] });
    expect(changesOf(hpa('web'), hpa('api'), objects)).toEqual([
      {
        what: 'HorizontalPodAutoscaler scaler autoscaler',
        before: 2,
        after: 1,
        gained: ['api-0'],
        lost: ['web-1-a', 'web-1-b'],
      },
    ]);
  });

  it('reads a document the API server refused as it was sent, whatever its shape, without failing', () => {
    const odd = [
      { ...web, spec: 'not an object' },
      { ...web, spec: { selector: { matchExpressions: { key: 'app' } }, template: [] } },
      { ...policy, spec: { podSelector: { matchLabels: 'app' }, ingress: [{ from: 7 }, 'x'] } },
    ] as KubeObject[];
    for (const after of odd) {
      expect(() => changesOf(after.kind === 'Deployment' ? web : policy, after)).not.toThrow();
      expect(() => templateMismatch(after)).not.toThrow();
    }
  });
});
