import { describe, expect, it } from 'vitest';
import { auditObject } from './catalogue.ts';
import { createAuditContext } from './context.ts';
import { hardenedContainer, now, pod, secure, workload } from './fixtures.ts';
import { containersOf, ownedByWorkload, podKinds, podSpecOf, workloadKinds } from './pod-spec.ts';

const owner = (kind: string) => ({
  apiVersion: 'apps/v1',
  kind,
  name: 'web-7d9f',
  uid: 'u1',
  controller: true,
});

describe('pod specs of pods and workloads', () => {
  it.each(workloadKinds)('finds the pod template of a %s', (kind) => {
    expect(podSpecOf(workload(kind))?.containers).toEqual([hardenedContainer]);
  });

  it('reads a Pod’s own spec and nothing of other kinds', () => {
    expect(podSpecOf(pod())?.containers).toEqual([hardenedContainer]);
    expect(podSpecOf({ kind: 'ConfigMap', data: {} })).toBeUndefined();
    expect(podKinds).toEqual(['Pod', ...workloadKinds]);
  });

  it('groups containers: main (with sidecars), images (and init), all (and ephemeral)', () => {
    const spec = {
      containers: [{ name: 'app' }],
      initContainers: [{ name: 'migrate' }, { name: 'proxy', restartPolicy: 'Always' }],
      ephemeralContainers: [{ name: 'debugger' }],
    };
    const names = (set: 'main' | 'images' | 'all') =>
      containersOf(spec, set).map((c) => `${c.kind}:${c.name}`);
    expect(names('main')).toEqual(['container:app', 'init:proxy']);
    expect(names('images')).toEqual(['container:app', 'init:proxy', 'init:migrate']);
    expect(names('all')).toEqual(['container:app', 'init:proxy', 'init:migrate', 'ephemeral:debugger']);
  });
});

describe('objects a workload owns', () => {
  it('are a ReplicaSet’s, StatefulSet’s, DaemonSet’s, Job’s pods, a Deployment’s ReplicaSets, a CronJob’s Jobs', () => {
    for (const kind of [
      'ReplicaSet',
      'StatefulSet',
      'DaemonSet',
      'Job',
      'Deployment',
      'CronJob',
      'ReplicationController',
    ])
      expect(ownedByWorkload(pod({}, { ownerReferences: [owner(kind)] }))).toBe(true);
  });

  it('are not a static pod’s (owned by its Node), an operator’s or an unowned pod', () => {
    expect(ownedByWorkload(pod({}, { ownerReferences: [owner('Node')] }))).toBe(false);
    expect(ownedByWorkload(pod({}, { ownerReferences: [owner('Prometheus')] }))).toBe(false);
    expect(ownedByWorkload(pod())).toBe(false);
  });

  it('are reported on the owner only: a privileged ReplicaSet pod has no pod-spec findings, a static pod has', () => {
    const privileged = { containers: [secure({ privileged: true })] };
    const context = createAuditContext([], { now });
    const ids = (metadata: Record<string, unknown>) =>
      auditObject(pod(privileged, metadata), context)
        .map((f) => f.checkId)
        .filter((id) => id === 'privileged');
    expect(ids({ ownerReferences: [owner('ReplicaSet')] })).toEqual([]);
    expect(ids({ ownerReferences: [owner('Node')] })).toEqual(['privileged']);
  });
});
