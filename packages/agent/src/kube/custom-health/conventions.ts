import type { KubeObject } from '@binnacle/common';
import {
  type Condition,
  conditionsOf,
  find,
  type HealthWhy,
  positive,
  record,
  text,
  verdict,
  worst,
} from './verdict.ts';

/**
 * The conventions the ecosystem shares (ADR 0126, docs/integrations/README.md): kstatus's rules
 * (sigs.k8s.io/cli-utils pkg/kstatus/status/generic.go) first, then the Ready / Available / Synced conditions,
 * then a `status.phase` word.
 */

/** Reasons of a False Ready-like condition that say the work is still going, not that it failed. */
export const progressReasons: ReadonlySet<string> = new Set([
  'Progressing',
  'Pending',
  'Reconciling',
  'Creating',
  'Deleting',
  'Provisioning',
  'Initializing',
  'InProgress',
  'Updating',
  'Waiting',
  'DependencyNotReady',
  'AwaitingReconciliation',
]);

/** Conditions that say the object works; Crossplane's objects have both Synced and Ready. */
const readyLike = ['Ready', 'Available', 'Synced'];

const healthyPhases = new Set([
  'Running',
  'Succeeded',
  'Completed',
  'Complete',
  'Active',
  'Ready',
  'Available',
  'Bound',
  'Healthy',
  'Established',
  'Deployed',
  'Enabled',
]);
const failedPhases = new Set([
  'Failed',
  'Failure',
  'Error',
  'Errored',
  'Degraded',
  'Unhealthy',
  'Unavailable',
  'Invalid',
  'Rejected',
  'Lost',
  'PartiallyFailed',
  'FailedValidation',
  'CrashLoopBackOff',
]);
const progressPhases = new Set([
  'Pending',
  'Progressing',
  'Creating',
  'Provisioning',
  'Initializing',
  'InProgress',
  'New',
  'Waiting',
  'Updating',
  'Scaling',
  'Deleting',
  'Terminating',
  'Starting',
]);

/**
 * What every object says the same way, before any rule of its own: being deleted, and (kstatus) a generation the
 * controller has not observed yet — at the status's `observedGeneration`, or at a deciding condition's.
 */
export function lifecycleHealth(object: KubeObject): HealthWhy | undefined {
  if (object.metadata?.deletionTimestamp)
    return verdict('degraded', 'deletion', 'Terminating', 'the object is being deleted');
  const generation = object.metadata?.generation;
  const observed = record(object.status).observedGeneration;
  if (typeof generation === 'number' && typeof observed === 'number' && observed < generation)
    return verdict(
      'degraded',
      'generation',
      'LatestGenerationNotObserved',
      `generation is ${generation}, but latest observed generation is ${observed}`,
    );
  return undefined;
}

/** A condition written for an older generation than the object's: the controller has not caught up. */
export function staleCondition(object: KubeObject, condition: Condition): HealthWhy | undefined {
  const generation = object.metadata?.generation;
  if (typeof generation !== 'number' || condition.observedGeneration === undefined) return undefined;
  if (condition.observedGeneration >= generation) return undefined;
  return verdict(
    'degraded',
    condition.type,
    'LatestGenerationNotObserved',
    `${condition.type} was reported for generation ${condition.observedGeneration}, the object is at ${generation}`,
  );
}

/** A `status.phase` (or another phase-like word) in our words; undefined for a word we do not know. */
export function phaseHealth(phase: string, from = 'phase'): HealthWhy | undefined {
  if (healthyPhases.has(phase)) return verdict('healthy', from, phase);
  if (failedPhases.has(phase)) return verdict('unhealthy', from, phase);
  if (progressPhases.has(phase)) return verdict('degraded', from, phase);
  return undefined;
}

/** kstatus's Reconciling and Stalled, then the worst of the Ready-like conditions, then the phase. */
export function conventionHealth(object: KubeObject): HealthWhy {
  const early = lifecycleHealth(object);
  if (early) return early;
  const conditions = conditionsOf(object);
  const stalled = find(conditions, 'Stalled');
  if (stalled?.status === 'True') return verdict('unhealthy', 'Stalled', stalled.reason, stalled.message);
  const reconciling = find(conditions, 'Reconciling');
  if (reconciling?.status === 'True')
    return verdict('degraded', 'Reconciling', reconciling.reason, reconciling.message);
  const deciding = readyLike.flatMap((type) => find(conditions, type) ?? []);
  const judged = worst(deciding.map((c) => staleCondition(object, c) ?? positive(c, progressReasons)));
  if (judged) return judged;
  const phase = text(record(object.status).phase);
  if (phase) return phaseHealth(phase) ?? verdict('unknown', 'phase', phase);
  return verdict('unknown');
}
