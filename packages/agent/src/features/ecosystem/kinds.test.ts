import { describe, expect, it } from 'vitest';
import type { ApiResource } from '../../kube/discovery.ts';
import { actionTarget } from './kinds.ts';

const served = (group: string, kind: string, plural: string, namespaced: boolean): ApiResource => ({
  group,
  version: 'v1',
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  verbs: ['get', 'patch', 'delete'],
  shortNames: [],
  categories: [],
});
const discovered = [
  served('cert-manager.io', 'Certificate', 'certificates', true),
  served('karpenter.sh', 'NodeClaim', 'nodeclaims', false),
  served('cluster.x-k8s.io', 'Cluster', 'clusters', true),
];
const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  return undefined;
};

describe('the object an action is about', () => {
  it('is the served kind the path names, in its namespace', () => {
    const t = actionTarget(discovered, 'renew', 'certificates.cert-manager.io', 'shop', 'tls');
    expect(t).toMatchObject({ kind: { kind: 'Certificate' }, namespace: 'shop', name: 'tls' });
    expect(t.resource.plural).toBe('certificates');
    expect(actionTarget(discovered, 'disrupt', 'NodeClaim', '_', 'c1').namespace).toBeUndefined();
  });

  it('refuses a kind the action does not take (400) and one the cluster does not serve (404)', () => {
    expect(codeOf(() => actionTarget(discovered, 'renew', 'deployments', 'shop', 'x'))).toEqual({
      code: 'unknown_kind',
      message: 'renew takes certificates.cert-manager.io (Certificate), not "deployments"',
    });
    // Cluster API's Cluster is served, CloudNativePG's is not: `clusters` names only the latter here.
    expect(codeOf(() => actionTarget(discovered, 'restart', 'clusters', 'db', 'pg'))).toEqual({
      code: 'kind_not_served',
      message: "the cluster serves no Cluster of postgresql.cnpg.io: cloudnative-pg's CRDs are not installed",
    });
  });

  it('wants `_` exactly for a cluster-scoped kind', () => {
    expect(codeOf(() => actionTarget(discovered, 'disrupt', 'nodeclaims', 'default', 'c1'))?.code).toBe(
      'invalid_request',
    );
    expect(codeOf(() => actionTarget(discovered, 'renew', 'certificates', '_', 'tls'))?.code).toBe(
      'invalid_request',
    );
  });
});
