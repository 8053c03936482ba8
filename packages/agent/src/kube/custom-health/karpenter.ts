import type { KubeObject } from '@binnacle/common';
import { conditionsOf, find, type HealthWhy, noStatus, positive, verdict } from './verdict.ts';

/**
 * Karpenter v1.8.0: Ready is the root condition of its dependents (operatorpkg's `NewReadyConditions`):
 * ValidationSucceeded and NodeClassReady on a NodePool (pkg/apis/v1/nodepool_status.go), Launched, Registered and
 * Initialized on a NodeClaim (pkg/apis/v1/nodeclaim_status.go). A failed launch leaves Launched Unknown with the
 * cloud provider's reason (`LaunchFailed`, pkg/controllers/nodeclaim/lifecycle/launch.go); NodeRegistrationHealthy
 * False on a NodePool needs manual investigation (pkg/controllers/nodeclaim/lifecycle/liveness.go); Drifted True
 * marks a NodeClaim Karpenter will replace (pkg/controllers/nodeclaim/disruption/drift.go).
 */
const none = new Set<string>();
/** operatorpkg's reason for a condition nothing has set yet. */
const notYet = 'AwaitingReconciliation';

function nodeClaimHealth(claim: KubeObject): HealthWhy {
  const conditions = conditionsOf(claim);
  const ready = find(conditions, 'Ready');
  if (!ready) return noStatus('on this node claim');
  const launched = find(conditions, 'Launched');
  if (launched?.status === 'Unknown' && launched.reason && launched.reason !== notYet)
    return verdict('unhealthy', 'Launched', launched.reason, launched.message);
  const drifted = find(conditions, 'Drifted');
  if (drifted?.status === 'True') return verdict('degraded', 'Drifted', drifted.reason, drifted.message);
  if (ready.status === 'Unknown') {
    // The first step not done yet says where the node is on its way.
    const step = ['Launched', 'Registered', 'Initialized']
      .map((type) => find(conditions, type))
      .find((c) => c && c.status !== 'True');
    if (step) return positive(step, none);
  }
  return positive(ready, none);
}

export function karpenterHealth(object: KubeObject): HealthWhy {
  if (object.kind === 'NodeClaim') return nodeClaimHealth(object);
  const conditions = conditionsOf(object);
  const registration = find(conditions, 'NodeRegistrationHealthy');
  if (registration?.status === 'False')
    return verdict('unhealthy', 'NodeRegistrationHealthy', registration.reason, registration.message);
  const ready = find(conditions, 'Ready');
  return ready ? positive(ready, none) : noStatus('on this node pool');
}
