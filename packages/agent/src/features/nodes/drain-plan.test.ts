import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { type DrainOptions, planDrain } from './drain-plan.ts';

const pod = (
  name: string,
  extra: { owner?: string; phase?: string; emptyDir?: boolean; mirror?: boolean } = {},
) =>
  ({
    metadata: {
      name,
      namespace: 'apps',
      ...(extra.owner
        ? {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: extra.owner, name: `${name}-owner`, uid: 'u', controller: true },
            ],
          }
        : {}),
      ...(extra.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'hash' } } : {}),
    },
    spec: { volumes: extra.emptyDir ? [{ name: 'scratch', emptyDir: {} }] : [] },
    status: { phase: extra.phase ?? 'Running' },
  }) as KubeObject;

const defaults: DrainOptions = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false };
const exists = () => true;
const summary = (plan: ReturnType<typeof planDrain>) => ({
  evict: plan.evict.map((p) => p.name),
  skipped: plan.skipped.map((p) => p.name),
  refused: plan.refused.map((p) => p.name),
});

describe('planDrain (kubectl drain filters)', () => {
  it('evicts pods with a controller and leaves DaemonSet and mirror pods', () => {
    const plan = planDrain(
      [
        pod('web', { owner: 'ReplicaSet' }),
        pod('ds', { owner: 'DaemonSet' }),
        pod('static', { mirror: true, owner: 'Node' }),
      ],
      defaults,
      exists,
    );
    expect(summary(plan)).toEqual({ evict: ['web'], skipped: ['ds', 'static'], refused: [] });
    expect(plan.skipped[0]?.reason).toBe('DaemonSet pod (DaemonSet ds-owner)');
  });

  it('refuses DaemonSet pods without ignoreDaemonSets, naming the switch', () => {
    const plan = planDrain(
      [pod('ds', { owner: 'DaemonSet' })],
      { ...defaults, ignoreDaemonSets: false },
      exists,
    );
    expect(plan.refused).toEqual([
      {
        namespace: 'apps',
        name: 'ds',
        reason: 'DaemonSet pod; set ignoreDaemonSets to leave it on the node',
      },
    ]);
  });

  it('evicts a pod of a DaemonSet that is gone only with force', () => {
    const orphan = [pod('ds', { owner: 'DaemonSet' })];
    expect(summary(planDrain(orphan, defaults, () => false)).refused).toEqual(['ds']);
    const forced = planDrain(orphan, { ...defaults, force: true }, () => false);
    expect(forced.evict[0]).toMatchObject({ name: 'ds', reason: 'its DaemonSet ds-owner no longer exists' });
  });

  it('refuses emptyDir pods unless deleteEmptyDirData, and warns when it evicts them', () => {
    const pods = [pod('cache', { owner: 'ReplicaSet', emptyDir: true })];
    expect(summary(planDrain(pods, defaults, exists)).refused).toEqual(['cache']);
    const plan = planDrain(pods, { ...defaults, deleteEmptyDirData: true }, exists);
    expect(plan.evict[0]?.reason).toBe('its emptyDir data will be lost');
  });

  it('refuses bare pods unless force, and collects every warning that applies', () => {
    const bare = [pod('bare', { emptyDir: true })];
    expect(planDrain(bare, { ...defaults, deleteEmptyDirData: true }, exists).refused[0]?.reason).toContain(
      'set force',
    );
    const plan = planDrain(bare, { ...defaults, deleteEmptyDirData: true, force: true }, exists);
    expect(plan.evict[0]?.reason).toBe('its emptyDir data will be lost; no controller will recreate it');
  });

  it('lets finished pods go whatever they are', () => {
    const plan = planDrain(
      [
        pod('done', { phase: 'Succeeded', emptyDir: true }),
        pod('failed-ds', { owner: 'DaemonSet', phase: 'Failed' }),
      ],
      { ...defaults, ignoreDaemonSets: false },
      exists,
    );
    expect(summary(plan)).toEqual({ evict: ['done', 'failed-ds'], skipped: [], refused: [] });
  });
});
