import { randomBytes } from 'node:crypto';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { testCluster } from '../test-cluster.ts';
import { crdEstablished, waitForCrds } from './crds.ts';

describe('waiting for a CRD', () => {
  it('takes a CRD the API server has not written a status for yet as "not yet", and waits until it is served', async () => {
    const cluster = testCluster();
    const api = cluster.kubeConfig().makeApiClient(ApiextensionsV1Api);
    const group = `wait-${randomBytes(3).toString('hex')}.binnacle.test`;
    const name = `gadgets.${group}`;
    // The create answer is the object as stored, before the establishing controller has written any condition:
    // the state `kubectl wait --for=condition=Established` failed on.
    const created = await api.createCustomResourceDefinition({
      body: {
        metadata: { name },
        spec: {
          group,
          scope: 'Namespaced',
          names: { kind: 'Gadget', plural: 'gadgets' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
            },
          ],
        },
      },
    });
    try {
      expect(created.status?.conditions?.some((c) => c.type === 'Established')).not.toBe(true);
      expect(() => crdEstablished(created)).toThrow(`${name} has no Established condition yet`);
      await waitForCrds(cluster.state, [name], 30_000);
      expect(crdEstablished(await api.readCustomResourceDefinition({ name }))).toBe(true);
    } finally {
      await api.deleteCustomResourceDefinition({ name });
    }
  });
});
