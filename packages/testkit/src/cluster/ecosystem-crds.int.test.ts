import { readdir } from 'node:fs/promises';
import { integrations } from '@binnacle/common';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { testCluster } from '../test-cluster.ts';
import { clusterBinaries } from './paths.ts';

/** ADR 0127: the test control plane serves the real CRDs of every kind the ecosystem registry names. */
describe("the ecosystem projects' CRDs", () => {
  it('has one folder per integration, as the registry names them', async () => {
    const { ecosystemCrdsDir } = await clusterBinaries('full');
    expect((await readdir(ecosystemCrdsDir)).sort()).toEqual(integrations.map((i) => i.id).sort());
  });

  it.each(integrations.map((integration) => [integration.id, integration] as const))(
    'serves every kind of %s, Established, with the scope the registry says',
    async (_id, integration) => {
      const api = testCluster().kubeConfig().makeApiClient(ApiextensionsV1Api);
      const crds = (await api.listCustomResourceDefinition()).items;
      for (const { group, kind, namespaced } of integration.kinds) {
        const crd = crds.find((c) => c.spec.group === group && c.spec.names.kind === kind);
        expect(crd, `${kind}.${group}`).toBeDefined();
        expect(crd?.spec.scope).toBe(namespaced ? 'Namespaced' : 'Cluster');
        expect(crd?.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
        expect(crd?.spec.versions.some((v) => v.served && v.storage)).toBe(true);
      }
    },
  );
});
