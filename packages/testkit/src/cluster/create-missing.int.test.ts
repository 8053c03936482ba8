import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiextensionsV1Api, NetworkingV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { testCluster } from '../test-cluster.ts';
import { createMissing, type SeedObject } from './create-missing.ts';
import { clusterBinaries, repoRoot } from './paths.ts';

const cluster = testCluster();
const kc = cluster.kubeConfig();

describe('creating what is missing', () => {
  it('stores each object as written, fields the client library renames included, and leaves an existing one as changed since', async () => {
    const { kubectl } = await clusterBinaries('full');
    const ns = await cluster.namespace('create-missing');
    const group = `missing-${randomBytes(3).toString('hex')}.binnacle.test`;
    // Both carry fields @kubernetes/client-node's models rename (`_from`, `x_kubernetes_preserve_unknown_fields`):
    // its create dropped them, which left the seed's policy admitting every pod and a Rollout's spec pruned (ADR 0063).
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'api-from-web', namespace: ns.name },
      spec: {
        podSelector: { matchLabels: { app: 'api' } },
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }], ports: [{ port: 8080 }] }],
      },
    };
    // The seed's Rollout CRD, its schema under names of this test's own (no agent test may find a second Rollout).
    const rollouts = parse(
      await readFile(join(repoRoot, 'test/cluster/seed/45-rollouts-crds.yaml'), 'utf8'),
    ) as SeedObject & { spec: object };
    const crd = {
      ...rollouts,
      metadata: { name: `gadgets.${group}` },
      spec: { ...rollouts.spec, group, names: { kind: 'Gadget', plural: 'gadgets' } },
    };
    const networking = kc.makeApiClient(NetworkingV1Api);
    const extensions = kc.makeApiClient(ApiextensionsV1Api);
    try {
      expect(await createMissing(cluster.state, kubectl, [policy, crd])).toEqual({
        created: [policy, crd],
        present: [],
      });
      const stored = await networking.readNamespacedNetworkPolicy({
        namespace: ns.name,
        name: policy.metadata.name,
      });
      expect(stored.spec?.ingress?.[0]?._from).toEqual([{ podSelector: { matchLabels: { app: 'web' } } }]);
      const spec = (await extensions.readCustomResourceDefinition({ name: crd.metadata.name })).spec
        .versions[0]?.schema?.openAPIV3Schema?.properties?.spec;
      expect(spec?.x_kubernetes_preserve_unknown_fields).toBe(true);

      // The user opens the port to 9090; creating again leaves it so.
      await networking.patchNamespacedNetworkPolicy({
        namespace: ns.name,
        name: policy.metadata.name,
        body: [{ op: 'replace', path: '/spec/ingress/0/ports/0/port', value: 9090 }],
      });
      expect(await createMissing(cluster.state, kubectl, [policy, crd])).toEqual({
        created: [],
        present: [policy, crd],
      });
      const after = await networking.readNamespacedNetworkPolicy({
        namespace: ns.name,
        name: policy.metadata.name,
      });
      expect(after.spec?.ingress?.[0]?.ports).toEqual([{ port: 9090, protocol: 'TCP' }]);
    } finally {
      await extensions.deleteCustomResourceDefinition({ name: crd.metadata.name });
      await ns.remove();
    }
  });
});
