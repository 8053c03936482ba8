import type { KubeObject } from '@binnacle/common';
import type { Tone } from '../../../ui/Badge.tsx';
import type { Condition } from './format.ts';

/** Where a rollout stands, in a word for the badge and a sentence for the reader. */
export interface RolloutStatus {
  state: 'complete' | 'progressing' | 'stuck' | 'paused' | 'manual';
  tone: Tone;
  words: string;
}

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

const progressing = (words: string): RolloutStatus => ({ state: 'progressing', tone: 'info', words });
const complete = (words: string): RolloutStatus => ({ state: 'complete', tone: 'good', words });
const notObserved = progressing('Waiting for the controller to observe the latest spec');

function deployment(o: KubeObject, generation: number, observed: number): RolloutStatus {
  if (o.spec?.paused === true) return { state: 'paused', tone: 'warn', words: 'Rollout paused' };
  if (generation > observed) return notObserved;
  const conditions = (o.status?.conditions as Condition[] | undefined) ?? [];
  const progress = conditions.find((c) => c.type === 'Progressing');
  if (progress?.reason === 'ProgressDeadlineExceeded')
    return {
      state: 'stuck',
      tone: 'bad',
      words: `Rollout stuck: ProgressDeadlineExceeded${progress.message ? ` (${progress.message})` : ''}`,
    };
  const desired = typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
  const { updatedReplicas: updated, replicas: total, availableReplicas: available } = o.status ?? {};
  if (num(updated) < desired) return progressing(`${num(updated)} of ${desired} new replicas updated`);
  if (num(total) > num(updated))
    return progressing(`${num(total) - num(updated)} old replicas pending termination`);
  if (num(available) < num(updated))
    return progressing(`${num(available)} of ${num(updated)} updated replicas available`);
  return complete(`Rolled out: ${num(updated)} of ${desired} replicas updated and available`);
}

function statefulSet(o: KubeObject, generation: number, observed: number): RolloutStatus {
  const strategy = o.spec?.updateStrategy as
    | { type?: string; rollingUpdate?: { partition?: number } }
    | undefined;
  if (strategy?.type === 'OnDelete')
    return { state: 'manual', tone: 'muted', words: 'Updates on delete: pods change when they are deleted' };
  if (observed === 0 || generation > observed) return notObserved;
  const desired = typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
  const { readyReplicas: ready, updatedReplicas: updated, currentRevision, updateRevision } = o.status ?? {};
  if (num(ready) < desired) return progressing(`${num(ready)} of ${desired} pods ready`);
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  if (partition > 0) {
    const target = desired - partition;
    return num(updated) < target
      ? progressing(`Partitioned rollout: ${num(updated)} of ${target} new pods updated`)
      : complete(`Partitioned rollout complete: ${num(updated)} new pods updated`);
  }
  if (updateRevision !== currentRevision)
    return progressing(
      `Rolling update: ${num(updated)} of ${desired} pods at revision ${String(updateRevision)}`,
    );
  return complete(`Rolled out: ${desired} pods at revision ${String(currentRevision)}`);
}

function daemonSet(o: KubeObject, generation: number, observed: number): RolloutStatus {
  const strategy = o.spec?.updateStrategy as { type?: string } | undefined;
  if (strategy?.type === 'OnDelete')
    return { state: 'manual', tone: 'muted', words: 'Updates on delete: pods change when they are deleted' };
  if (generation > observed) return notObserved;
  const {
    desiredNumberScheduled: desired,
    updatedNumberScheduled: updated,
    numberAvailable: available,
  } = o.status ?? {};
  if (num(updated) < num(desired)) return progressing(`${num(updated)} of ${num(desired)} new pods updated`);
  if (num(available) < num(desired))
    return progressing(`${num(available)} of ${num(desired)} updated pods available`);
  return complete(`Rolled out: ${num(desired)} pods updated and available`);
}

function replicaSet(o: KubeObject): RolloutStatus {
  const desired = typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
  const ready = num(o.status?.readyReplicas);
  if (ready < desired) return progressing(`${ready} of ${desired} replicas ready`);
  return complete(`${ready} of ${desired} replicas ready`);
}

/**
 * A workload's rollout in words, by the checks `kubectl rollout status` makes per kind: the spec observed
 * first, then updated, old and available replicas against the desired count (a Deployment's Progressing
 * condition says when it gave up). A ReplicaSet has no rollout of its own: its ready replicas.
 */
export function rolloutStatus(o: KubeObject): RolloutStatus | undefined {
  const generation = num((o.metadata as { generation?: number } | undefined)?.generation);
  const observed = num(o.status?.observedGeneration);
  switch (o.kind) {
    case 'Deployment':
      return deployment(o, generation, observed);
    case 'StatefulSet':
      return statefulSet(o, generation, observed);
    case 'DaemonSet':
      return daemonSet(o, generation, observed);
    case 'ReplicaSet':
      return replicaSet(o);
    default:
      return undefined;
  }
}

/** How a workload replaces its pods: the strategy and its knobs (`RollingUpdate, max surge 25%, max unavailable 0`). */
export function strategyWords(o: KubeObject): string | undefined {
  const strategy = (o.spec?.strategy ?? o.spec?.updateStrategy) as
    | {
        type?: string;
        rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string; partition?: number };
      }
    | undefined;
  if (!strategy?.type) return undefined;
  const knobs: string[] = [];
  const r = strategy.rollingUpdate;
  if (r?.maxSurge !== undefined) knobs.push(`max surge ${r.maxSurge}`);
  if (r?.maxUnavailable !== undefined) knobs.push(`max unavailable ${r.maxUnavailable}`);
  if (r?.partition) knobs.push(`partition ${r.partition}`);
  return [strategy.type, ...knobs].join(', ');
}
