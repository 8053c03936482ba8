import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube-object.ts';
import { compareObjects } from './compare.ts';

const deployment = (name: string, overrides: { image: string; replicas: number; env: string }) =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'shop',
      uid: `${name}-uid`,
      resourceVersion: name === 'a' ? '10' : '99',
      generation: 2,
      labels: { app: 'checkout' },
      annotations: { 'deployment.kubernetes.io/revision': name === 'a' ? '1' : '4' },
      managedFields: [{ manager: name }],
    },
    spec: {
      replicas: overrides.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'checkout' } },
      template: {
        metadata: { labels: { app: 'checkout' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: overrides.image,
              imagePullPolicy: 'IfNotPresent',
              terminationMessagePath: '/dev/termination-log',
              env: [{ name: 'MODE', value: overrides.env }],
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
            },
          ],
          dnsPolicy: 'ClusterFirst',
        },
      },
    },
    status: { replicas: overrides.replicas, readyReplicas: overrides.replicas },
  }) as KubeObject;

describe('compareObjects', () => {
  it('shows the choices and folds status, server-set fields and defaults one side lacks', () => {
    const left = deployment('a', { image: 'shop/checkout:1.4', replicas: 2, env: 'live' });
    const right = deployment('b', { image: 'shop/checkout:1.5', replicas: 3, env: 'live' });
    // The other cluster's API server fills in one more default; this one never had it.
    (right.spec as { progressDeadlineSeconds?: number }).progressDeadlineSeconds = 600;
    const result = compareObjects(left, right);
    const shown = result.differences.filter((d) => !d.folded);
    expect(shown).toEqual([
      { path: 'spec.replicas', left: 2, right: 3 },
      {
        path: 'spec.template.spec.containers[name=app].image',
        left: 'shop/checkout:1.4',
        right: 'shop/checkout:1.5',
      },
    ]);
    const folded = Object.fromEntries(
      result.differences.filter((d) => d.folded).map((d) => [d.path, d.folded]),
    );
    expect(folded).toEqual({
      'metadata.uid': 'server',
      'metadata.resourceVersion': 'server',
      'metadata.annotations.deployment.kubernetes.io/revision': 'server',
      'spec.progressDeadlineSeconds': 'defaulted',
      'status.replicas': 'status',
      'status.readyReplicas': 'status',
    });
    expect(result.counts).toEqual({ shown: 2, status: 2, defaulted: 1, server: 3 });
    expect(result.identical).toBe(false);
    // managedFields and the names are never compared.
    expect(
      result.differences.some((d) => d.path.includes('managedFields') || d.path === 'metadata.name'),
    ).toBe(false);
  });

  it('keys lists by name, so a reordered list is no difference and an added element is one', () => {
    const left = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    const right = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    const containers = (o: KubeObject) =>
      (o.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers;
    containers(left).push({ name: 'sidecar', image: 'proxy:2' });
    containers(right).unshift({ name: 'sidecar', image: 'proxy:2' });
    (containers(right)[1] as Record<string, unknown>).env = [
      { name: 'MODE', value: 'live' },
      { name: 'DEBUG', value: '1' },
    ];
    const result = compareObjects(left, right);
    expect(result.differences).toEqual([
      { path: 'spec.template.spec.containers[name=app].env[name=DEBUG].value', right: '1' },
    ]);
  });

  it('a default inside a list element only one side has is part of that element, not folded', () => {
    const left = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    const right = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    const app = (o: KubeObject) =>
      (o.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec
        .containers[0] as { ports: Record<string, unknown>[] };
    app(right).ports.push({ containerPort: 9090, protocol: 'TCP' });
    expect(compareObjects(left, right).differences).toEqual([
      { path: 'spec.template.spec.containers[name=app].ports[containerPort=9090].protocol', right: 'TCP' },
    ]);
  });

  it('a default set on both sides to different values is a real difference', () => {
    const left = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    const right = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    (right.spec as { revisionHistoryLimit: number }).revisionHistoryLimit = 3;
    expect(compareObjects(left, right).differences).toEqual([
      { path: 'spec.revisionHistoryLimit', left: 10, right: 3 },
    ]);
  });

  it("imagePullPolicy is a default only for the image's tag", () => {
    const left = deployment('a', { image: 'x:latest', replicas: 1, env: 'live' });
    const right = deployment('a', { image: 'x:latest', replicas: 1, env: 'live' });
    const app = (o: KubeObject) =>
      (o.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec
        .containers[0] as Record<string, unknown>;
    delete app(right).imagePullPolicy;
    // IfNotPresent is not what `latest` defaults to: someone chose it.
    expect(compareObjects(left, right).differences).toEqual([
      { path: 'spec.template.spec.containers[name=app].imagePullPolicy', left: 'IfNotPresent' },
    ]);
    app(left).imagePullPolicy = 'Always';
    expect(compareObjects(left, right).differences[0]?.folded).toBe('defaulted');
  });

  it('never returns Secret values, only that they differ', () => {
    const secret = (value: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's' },
        data: { password: value, same: 'eA==' },
      }) as KubeObject;
    const result = compareObjects(secret('aHVudGVyMg=='), secret('c2VjcmV0'));
    expect(result.differences).toEqual([
      {
        path: 'data.password',
        left: '(secret value, 12 characters)',
        right: '(secret value, 8 characters)',
      },
    ]);
    expect(JSON.stringify(result)).not.toContain('aHVudGVyMg');
    expect(result.equal).toBeGreaterThan(0);
  });

  it('two identical objects are identical', () => {
    const one = deployment('a', { image: 'x:1', replicas: 1, env: 'live' });
    expect(compareObjects(one, structuredClone(one))).toMatchObject({ identical: true, differences: [] });
  });
});
