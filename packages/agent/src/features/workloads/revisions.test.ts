import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { pickRevision, revisionsOf, rollbackPatch, runsTemplate } from './revisions.ts';

const podTemplate = (image: string, hash?: string) => ({
  metadata: { labels: { app: 'web', ...(hash ? { 'pod-template-hash': hash } : {}) } },
  spec: { containers: [{ name: 'main', image }] },
});
const replicaSet = (
  revision: number,
  image: string,
  annotations: Record<string, string> = {},
): KubeObject => ({
  metadata: {
    name: `web-${revision}`,
    annotations: { 'deployment.kubernetes.io/revision': String(revision), ...annotations },
  },
  spec: { template: podTemplate(image, `h${revision}`) },
});
const deployment: KubeObject = {
  metadata: {
    name: 'web',
    annotations: { 'deployment.kubernetes.io/revision': '3', 'team.example/owner': 'shop' },
  },
  spec: { template: podTemplate('web:3') },
};
const history = [
  replicaSet(1, 'web:1'),
  replicaSet(3, 'web:3'),
  replicaSet(2, 'web:2', { 'kubernetes.io/change-cause': 'bump' }),
];

describe('revisionsOf', () => {
  it('orders a Deployment history newest first, marks the current one and drops the hash label', () => {
    const revisions = revisionsOf('Deployment', deployment, history);
    expect(revisions.map((r) => [r.revision, r.current, r.images[0], r.changeCause])).toEqual([
      [3, true, 'web:3', undefined],
      [2, false, 'web:2', 'bump'],
      [1, false, 'web:1', undefined],
    ]);
    expect(revisions[0]?.template).toEqual(podTemplate('web:3'));
  });

  it('reads ControllerRevisions without their $patch marker, the StatefulSet naming its current one', () => {
    const revision = (n: number, image: string): KubeObject => ({
      metadata: { name: `db-${n}` },
      revision: n,
      data: { spec: { template: { ...podTemplate(image), $patch: 'replace' } } },
    });
    const sts: KubeObject = { spec: {}, status: { updateRevision: 'db-1' } };
    const revisions = revisionsOf('StatefulSet', sts, [revision(1, 'db:1'), revision(2, 'db:2')]);
    expect(revisions.map((r) => [r.revision, r.current])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(revisions[1]?.template).toEqual(podTemplate('db:1'));
  });
});

describe('pickRevision', () => {
  const revisions = revisionsOf('Deployment', deployment, history);
  it('takes the one before the newest by default, as kubectl rollout undo', () => {
    expect(pickRevision(revisions, undefined, 'Deployment x/web').revision).toBe(2);
  });
  it('names the history when a revision does not exist', () => {
    expect(() => pickRevision(revisions, 7, 'Deployment x/web')).toThrow(
      'Deployment x/web has no revision 7; its history holds revisions 1, 2, 3',
    );
    expect(() => pickRevision(revisions.slice(0, 1), undefined, 'Deployment x/web')).toThrow(
      'no earlier revision to roll back to (its history: 3)',
    );
  });
});

describe('runsTemplate and rollbackPatch', () => {
  const revisions = revisionsOf('Deployment', deployment, history);
  it('sees the current template whatever the hash label', () => {
    expect(runsTemplate('Deployment', deployment, revisions[0] as (typeof revisions)[0])).toBe(true);
    expect(runsTemplate('Deployment', deployment, revisions[1] as (typeof revisions)[0])).toBe(false);
  });

  it("replaces a Deployment's template and takes the ReplicaSet's annotations but kubectl's skipped ones", () => {
    const target = revisions[1] as (typeof revisions)[0];
    const patch = rollbackPatch('Deployment', deployment, target, history[2] as KubeObject);
    expect(patch.contentType).toBe('application/json-patch+json');
    expect(patch.body).toEqual([
      { op: 'replace', path: '/spec/template', value: podTemplate('web:2') },
      {
        op: 'add',
        path: '/metadata/annotations',
        value: { 'deployment.kubernetes.io/revision': '3', 'kubernetes.io/change-cause': 'bump' },
      },
    ]);
  });
});
