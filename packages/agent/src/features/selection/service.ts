import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { callerView, viewReader } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import {
  type ApplyTarget,
  existingObject,
  parseDocuments,
  serverSideApply,
  targetOf,
} from '../../scope/server-side-apply.ts';
import { type Edit, type LiveObjects, snapshotsOf, templateMismatch } from './edit.ts';
import { selectingWorkloads } from './holders.ts';
import { type PodSample, type SelectionChange, selectionChanges } from './impact.ts';
import type { SelectionContext } from './module.ts';

/** The kinds whose labels or selectors the impact reads, with their API groups. */
export const analysedKinds: Record<string, string> = {
  Pod: '',
  Namespace: '',
  Service: '',
  PodDisruptionBudget: 'policy',
  NetworkPolicy: 'networking.k8s.io',
  HorizontalPodAutoscaler: 'autoscaling',
  ...selectingWorkloads,
  CronJob: 'batch',
};

const selectingKinds = [
  ['', 'Service'],
  ['policy', 'PodDisruptionBudget'],
  ['networking.k8s.io', 'NetworkPolicy'],
  ['autoscaling', 'HorizontalPodAutoscaler'],
  ...Object.entries(selectingWorkloads).map(([kind, group]) => [group, kind]),
] as const;

export interface SelectionImpact {
  object: { kind: string; group: string; namespace?: string; name: string };
  /** What the API server made of the edit: accepted as a server-side-apply dry run, or refused as invalid. */
  dryRun:
    | { accepted: true; action: 'created' | 'configured' | 'unchanged' }
    | { accepted: false; error: string };
  /** The pods whose labels the edit changes: the object's pods as its new template makes them, a Pod, a Namespace's. */
  relabelled: PodSample;
  changes: SelectionChange[];
  /** A workload whose selector no longer matches its template. */
  mismatch?: string;
  /** Kinds still loading into the agent's cache (`plural.group`), left out of the answer. */
  loading?: string[];
}

function analysedTarget(ctx: SelectionContext, yaml: string, namespace: string | undefined): ApplyTarget {
  const objects = parseDocuments(yaml);
  if (objects.length !== 1)
    throw new AppError(
      'invalid_request',
      `the YAML must hold exactly one object, it holds ${objects.length}`,
    );
  const target = targetOf(ctx, objects[0] as KubeObject, 0, { namespace });
  if (analysedKinds[target.resource.kind] !== target.resource.group)
    throw new AppError(
      'invalid_request',
      `${target.resource.kind} carries no labels or selectors this reads: edit a Pod, a workload (${Object.keys(selectingWorkloads).join(', ')}, CronJob), a Service, a PodDisruptionBudget, a NetworkPolicy, a HorizontalPodAutoscaler or a Namespace`,
    );
  return target;
}

/**
 * The edit as the API server would store it (a server-side-apply dry run, as the caller). An edit it refuses as
 * invalid — a Deployment's template labels its immutable selector no longer matches — is judged as sent, with the
 * refusal beside the answer (docs/adr/0124-selection-impact.md); any other refusal is the answer.
 */
async function dryRun(
  ctx: SelectionContext,
  caller: Impersonation | undefined,
  target: ApplyTarget,
): Promise<{ edit: Edit; dryRun: SelectionImpact['dryRun'] }> {
  try {
    const applied = await serverSideApply(ctx, target, { as: caller, force: true }, true);
    return {
      edit: { before: applied.before, after: applied.object },
      dryRun: { accepted: true, action: applied.result.action },
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'invalid') throw error;
    const before = await existingObject(ctx, target, caller);
    return { edit: { before, after: target.object }, dryRun: { accepted: false, error: error.message } };
  }
}

/** The objects the caller may see that the impact reads, and the kinds still loading. */
async function liveObjects(ctx: SelectionContext, caller: Impersonation | undefined) {
  const { get, loading } = viewReader(ctx, await callerView(ctx, caller));
  const namespaces = ctx.cluster.find('', 'Namespace');
  const live: LiveObjects = {
    pods: get('', 'Pod'),
    // Namespaces' labels are matched against namespaceSelectors, never shown: read whatever the caller may list.
    namespaces: ctx.cluster.cache.peek(namespaces),
    selecting: selectingKinds.flatMap(([group, kind]) => get(group, kind)),
    intermediates: [...get('apps', 'ReplicaSet'), ...get('batch', 'Job')],
  };
  return { live, loading };
}

/**
 * Which objects gain or lose pods if this one-object YAML were applied (docs/adr/0124-selection-impact.md): the
 * edited object's answer comes from the API server's dry run, the rest from the agent's cache, as the caller sees
 * it.
 */
export async function selectionImpact(
  ctx: SelectionContext,
  caller: Impersonation | undefined,
  request: { yaml: string; namespace?: string },
): Promise<SelectionImpact> {
  const target = analysedTarget(ctx, request.yaml, request.namespace);
  const { edit, dryRun: outcome } = await dryRun(ctx, caller, target);
  const { live, loading } = await liveObjects(ctx, caller);
  const { before, after, relabelled, pods } = snapshotsOf(edit, live);
  const mismatch = templateMismatch(edit.after);
  return {
    object: {
      kind: target.resource.kind,
      group: target.resource.group,
      ...(target.namespace ? { namespace: target.namespace } : {}),
      name: target.name,
    },
    dryRun: outcome,
    relabelled: pods,
    changes: selectionChanges(before, after, relabelled),
    ...(mismatch ? { mismatch } : {}),
    ...(loading.length > 0 ? { loading } : {}),
  };
}
