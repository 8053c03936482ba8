import { condition, metadata, type StateFixture } from './fixture.ts';

/**
 * Crossplane objects in each state, statuses as Crossplane v2.1.0's core wrote them on the test control plane (ADR
 * 0127: run against it, not kept in the full profile). Its XRD reconciler
 * (internal/controller/apiextensions/definition/reconciler.go) writes one condition: Established True
 * `WatchingCompositeResource` once the composite's CRD serves (apis/apiextensions/v1/conditions.go; Offered
 * `WatchingCompositeResourceClaim` only for an XRD with claim names), never Synced. When the CRD cannot be
 * rendered or applied it records a Warning event `EstablishComposite` ("cannot apply rendered composite resource
 * CustomResourceDefinition: …") and leaves the status as it was: a new XRD Crossplane cannot serve has none.
 * Compositions have no status. Crossplane writes failures (Synced False `ReconcileError`) only on composites,
 * claims and managed resources, kinds its XRDs and providers define: the conventions judge them (health.test.ts),
 * so no Crossplane fixture here is `failed`.
 */
const api = 'apiextensions.crossplane.io/v1';

export function crossplaneStates(prefix: string): StateFixture[] {
  const group = `${prefix}.example.binnacle.dev`;
  const definition = (kind: string, plural: string, conditions?: object[]) => ({
    apiVersion: api,
    kind: 'CompositeResourceDefinition',
    metadata: metadata(`${plural}.${group}`),
    spec: {
      group,
      names: { kind, plural },
      versions: [
        {
          name: 'v1',
          served: true,
          referenceable: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } },
        },
      ],
    },
    ...(conditions ? { status: { conditions } } : {}),
  });
  return [
    {
      state: 'healthy',
      object: definition('XDatabase', 'xdatabases', [
        condition('Established', 'True', 'WatchingCompositeResource', '', { observedGeneration: 1 }),
      ]),
      expected: { health: 'healthy', from: 'Established', reason: 'WatchingCompositeResource' },
    },
    {
      state: 'progressing',
      object: definition('XBucket', 'xbuckets'),
      expected: { health: 'unknown', reason: 'NoStatus' },
    },
    {
      state: 'healthy',
      object: {
        apiVersion: api,
        kind: 'Composition',
        metadata: metadata(`${prefix}-database`),
        spec: {
          compositeTypeRef: { apiVersion: `${group}/v1`, kind: 'XDatabase' },
          mode: 'Pipeline',
          pipeline: [{ step: 'patch-and-transform', functionRef: { name: 'function-patch-and-transform' } }],
        },
      },
      expected: { health: 'healthy' },
    },
  ];
}
