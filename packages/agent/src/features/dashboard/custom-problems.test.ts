import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import type { ApiResource } from '../../kube/discovery.ts';
import { ecosystemStates } from '../../testing/ecosystem/index.ts';
import { customResourceProblems } from './custom-problems.ts';
import { groupProblems } from './groups.ts';

const resource = (group: string, version: string, kind: string, plural: string): ApiResource => ({
  group,
  version,
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
  shortNames: [],
  categories: [],
});
const resources = [
  resource('', 'v1', 'Service', 'services'),
  resource('serving.knative.dev', 'v1', 'Service', 'services'),
  resource('cert-manager.io', 'v1', 'Certificate', 'certificates'),
  resource('velero.io', 'v1', 'Backup', 'backups'),
];
const states = ecosystemStates('shop', 'eco');
const objects = (id: string, kind: string) =>
  (states[id] ?? []).map((f) => f.object).filter((o) => o.kind === kind);
const byKind: Record<string, KubeObject[]> = {
  'serving.knative.dev/Service': objects('knative', 'Service'),
  'cert-manager.io/Certificate': objects('cert-manager', 'Certificate'),
  'velero.io/Backup': objects('velero', 'Backup'),
  '/Service': [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' } }],
};
const get = (group: string, kind: string) => byKind[`${group}/${kind}`] ?? [];

describe('custom resource problems', () => {
  const problems = customResourceProblems(resources, get, Date.now());

  it('are the unhealthy custom resources, with the deciding reason and message', () => {
    expect(problems.map((p) => `${p.kind} ${p.name}`).sort()).toEqual([
      'Backup eco-failed',
      'Backup eco-partial',
      'Certificate eco-cert-failed',
      'services.serving.knative.dev eco-broken',
    ]);
    expect(problems.find((p) => p.name === 'eco-cert-failed')).toMatchObject({
      namespace: 'shop',
      status: 'Issuing: Failed',
      reason: 'Failed',
      source: 'health',
      message: expect.stringContaining('will be retried'),
    });
  });

  it('leave out the kinds still loading, without naming them', () => {
    const loaded = customResourceProblems(resources, get, Date.now(), (r) => r.group !== 'velero.io');
    expect(loaded.map((p) => p.kind)).not.toContain('Backup');
    expect(loaded).toHaveLength(problems.length - 2);
  });

  it('group by reason as critical, as a failing workload does', () => {
    const groups = groupProblems(problems, 10);
    expect(groups.every((g) => g.severity === 'critical')).toBe(true);
    expect(groups.find((g) => g.reason === 'RevisionFailed')?.kinds).toEqual([
      'services.serving.knative.dev',
    ]);
  });
});
