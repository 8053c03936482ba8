import { condition, metadata, type StateFixture } from './fixture.ts';

/**
 * Crossplane objects in each state, statuses as Crossplane v2.1.0 writes them: an XRD's Established
 * (`WatchingComposite`) and, when its CRD cannot be made, Synced False `ReconcileError` (crossplane-runtime
 * apis/common/v1/condition.go, internal/controller/apiextensions/definition/reconciler.go). Compositions have no
 * status. Composites and managed resources (any object with a Synced condition) follow the conventions.
 */
const api = 'apiextensions.crossplane.io/v1';

export function crossplaneStates(prefix: string): StateFixture[] {
  const group = `${prefix}.example.binnacle.dev`;
  const definition = (kind: string, plural: string, conditions: object[]) => ({
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
    status: { conditions },
  });
  return [
    {
      state: 'healthy',
      object: definition('XDatabase', 'xdatabases', [
        condition('Established', 'True', 'WatchingComposite', ''),
        condition('Synced', 'True', 'ReconcileSuccess', ''),
      ]),
      expected: { health: 'healthy', from: 'Established', reason: 'WatchingComposite' },
    },
    {
      state: 'failed',
      object: definition('XBucket', 'xbuckets', [
        condition(
          'Synced',
          'False',
          'ReconcileError',
          'cannot render composite resource CustomResourceDefinition: invalid schema',
        ),
      ]),
      expected: { health: 'unhealthy', from: 'Synced', reason: 'ReconcileError' },
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
