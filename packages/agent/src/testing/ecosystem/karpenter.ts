import { condition, metadata, type StateFixture } from './fixture.ts';

/**
 * Karpenter objects in each state, statuses as Karpenter v1.8.0 writes them through operatorpkg's condition set
 * (github.com/awslabs/operatorpkg status/condition_set.go at the release's go.mod: a True condition's reason is
 * its type; `AwaitingReconciliation` for one not set yet; every condition carries the object's generation; the
 * root Ready is Unknown `ReconcilingDependents` or False `UnhealthyDependents` naming them): NodePool
 * ValidationSucceeded, NodeClassReady (`NodeClassNotFound`, pkg/controllers/nodepool/readiness/controller.go) and
 * Ready; NodeClaim Launched (Unknown `LaunchFailed` after a failed create,
 * pkg/controllers/nodeclaim/lifecycle/launch.go), Registered, Initialized, Ready and Drifted
 * (pkg/controllers/nodeclaim/disruption/drift.go).
 */
const api = 'karpenter.sh/v1';
/**
 * A NodeClass no running Karpenter manages: the test control plane runs Karpenter with its kwok provider, which
 * reconciles only the NodePools and NodeClaims of its own NodeClass kind — it would overwrite a fixture's states,
 * launch nodes for its NodeClaims, and drain and delete the node a deleted NodeClaim names.
 */
const unmanagedNodeClassRef = {
  group: 'fixtures.binnacle.dev',
  kind: 'FixtureNodeClass',
  name: 'default',
};
const requirements = [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }];
const g1 = { observedGeneration: 1 };
const up = (type: string) => condition(type, 'True', type, '', g1);
const waiting = (type: string) =>
  condition(type, 'Unknown', 'AwaitingReconciliation', 'object is awaiting reconciliation', g1);
const reconciling = (dependents: string) =>
  condition('Ready', 'Unknown', 'ReconcilingDependents', dependents, g1);

/** A NodePool of the unmanaged NodeClass, with the conditions its controller set when given. */
export const nodePool = (name: string, conditions?: object[]) => ({
  apiVersion: api,
  kind: 'NodePool',
  metadata: metadata(name),
  spec: { template: { spec: { nodeClassRef: unmanagedNodeClassRef, requirements } } },
  ...(conditions ? { status: { nodes: 1, conditions } } : {}),
});

/**
 * A NodeClaim of the unmanaged NodeClass: of NodePool `pool` when given, registered as Node `node` when given, with
 * the conditions its controller set when given (no status without either: as a user creates it).
 */
export const nodeClaim = (
  name: string,
  options: { pool?: string; node?: string; conditions?: object[] } = {},
) => ({
  apiVersion: api,
  kind: 'NodeClaim',
  metadata: metadata(
    name,
    undefined,
    options.pool ? { labels: { 'karpenter.sh/nodepool': options.pool } } : {},
  ),
  spec: { nodeClassRef: unmanagedNodeClassRef, requirements },
  ...(options.node || options.conditions
    ? {
        status: {
          ...(options.node ? { nodeName: options.node, providerID: `kwok://${options.node}` } : {}),
          ...(options.conditions ? { conditions: options.conditions } : {}),
        },
      }
    : {}),
});

export function karpenterStates(prefix: string): StateFixture[] {
  const pool = `${prefix}-pool`;
  const poolClaim = (name: string, conditions: object[], node?: string) =>
    nodeClaim(name, { pool, conditions, ...(node ? { node } : {}) });
  return [
    {
      state: 'healthy',
      object: nodePool(`${prefix}-pool`, [up('ValidationSucceeded'), up('NodeClassReady'), up('Ready')]),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'failed',
      object: nodePool(`${prefix}-pool-noclass`, [
        up('ValidationSucceeded'),
        condition('NodeClassReady', 'False', 'NodeClassNotFound', 'NodeClass not found on cluster', g1),
        condition('Ready', 'False', 'UnhealthyDependents', 'NodeClassReady=False', g1),
      ]),
      expected: { health: 'unhealthy', from: 'Ready' },
    },
    {
      state: 'healthy',
      object: poolClaim(
        `${prefix}-claim`,
        [up('Launched'), up('Registered'), up('Initialized'), up('Ready')],
        `${prefix}-node`,
      ),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'progressing',
      object: poolClaim(`${prefix}-claim-joining`, [
        up('Launched'),
        waiting('Registered'),
        waiting('Initialized'),
        reconciling('Registered=Unknown, Initialized=Unknown'),
      ]),
      expected: { health: 'degraded', from: 'Registered', reason: 'AwaitingReconciliation' },
    },
    {
      state: 'failed',
      object: poolClaim(`${prefix}-claim-nolaunch`, [
        condition('Launched', 'Unknown', 'LaunchFailed', 'creating instance, insufficient capacity', g1),
        waiting('Registered'),
        waiting('Initialized'),
        reconciling('Launched=Unknown, Registered=Unknown, Initialized=Unknown'),
      ]),
      expected: { health: 'unhealthy', from: 'Launched', reason: 'LaunchFailed' },
    },
    {
      state: 'progressing',
      object: poolClaim(
        `${prefix}-claim-drifted`,
        [
          up('Launched'),
          up('Registered'),
          up('Initialized'),
          up('Ready'),
          condition('Drifted', 'True', 'NodePoolDrifted', 'NodePoolDrifted', g1),
        ],
        `${prefix}-node-old`,
      ),
      expected: { health: 'degraded', from: 'Drifted', reason: 'NodePoolDrifted' },
    },
  ];
}
