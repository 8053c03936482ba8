import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { WorkloadKind } from './kinds.ts';

type Obj = Record<string, unknown>;

/** One entry of a workload's rollout history, as `kubectl rollout history` lists them. */
export interface Revision {
  revision: number;
  /** The ReplicaSet (Deployments, Rollouts) or ControllerRevision (StatefulSets, DaemonSets) that keeps it. */
  source: { kind: 'ReplicaSet' | 'ControllerRevision'; name: string };
  createdAt?: string;
  current: boolean;
  images: string[];
  /** The `kubernetes.io/change-cause` annotation, when the change recorded one. */
  changeCause?: string;
  /** The pod template of the revision (without the controller's hash label). */
  template: Obj;
}

/** Which object kind keeps the history of a workload kind. */
export const historyKind = (kind: WorkloadKind) =>
  kind === 'Deployment' || kind === 'Rollout' ? 'ReplicaSet' : 'ControllerRevision';

const revisionAnnotation: Partial<Record<WorkloadKind, string>> = {
  Deployment: 'deployment.kubernetes.io/revision',
  Rollout: 'rollout.argoproj.io/revision',
};
const hashLabel: Partial<Record<WorkloadKind, string>> = {
  Deployment: 'pod-template-hash',
  Rollout: 'rollouts-pod-template-hash',
};

/** Annotations a Deployment keeps through a rollback, and ReplicaSet annotations never copied onto it (kubectl's list). */
const annotationsToSkip = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  'deployment.kubernetes.io/revision',
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

const revisionNumber = (kind: WorkloadKind, holder: KubeObject) =>
  historyKind(kind) === 'ReplicaSet'
    ? Number(holder.metadata?.annotations?.[revisionAnnotation[kind] ?? ''] ?? Number.NaN)
    : Number(holder.revision ?? Number.NaN);

/** A revision's pod template, as the workload would carry it. */
function templateOf(kind: WorkloadKind, holder: KubeObject): Obj {
  if (historyKind(kind) === 'ControllerRevision') {
    const { $patch: _, ...template } = (((holder.data as Obj | undefined)?.spec as Obj | undefined)
      ?.template ?? {}) as Obj;
    return template;
  }
  const template = structuredClone((holder.spec?.template ?? {}) as Obj);
  const metadata = (template.metadata ?? {}) as { labels?: Record<string, string> };
  const label = hashLabel[kind];
  if (label && metadata.labels) delete metadata.labels[label];
  return template;
}

const imagesOf = (template: Obj) =>
  (((template.spec as Obj | undefined)?.containers as Obj[] | undefined) ?? []).map((c) => String(c.image));

/** The workload's own revision marker (Deployments, Rollouts, StatefulSets), else the newest revision. */
function currentMarker(kind: WorkloadKind, workload: KubeObject): { revision?: number; name?: string } {
  const annotation = revisionAnnotation[kind];
  if (annotation) {
    const value = Number(workload.metadata?.annotations?.[annotation]);
    return Number.isInteger(value) ? { revision: value } : {};
  }
  if (kind === 'StatefulSet') return { name: workload.status?.updateRevision as string | undefined };
  return {};
}

/**
 * The history of a workload from the objects that keep it (already narrowed to those it controls), newest first.
 * Objects without a revision number are left out.
 */
export function revisionsOf(kind: WorkloadKind, workload: KubeObject, holders: KubeObject[]): Revision[] {
  const marker = currentMarker(kind, workload);
  const revisions = holders
    .map((holder) => ({ holder, revision: revisionNumber(kind, holder) }))
    .filter(({ revision }) => Number.isInteger(revision) && revision > 0)
    .sort((a, b) => b.revision - a.revision);
  const newest = revisions[0]?.revision;
  return revisions.map(({ holder, revision }) => {
    const template = templateOf(kind, holder);
    return {
      revision,
      source: { kind: historyKind(kind), name: holder.metadata?.name ?? '' },
      createdAt: holder.metadata?.creationTimestamp,
      current:
        marker.revision !== undefined
          ? marker.revision === revision
          : marker.name !== undefined
            ? marker.name === holder.metadata?.name
            : revision === newest,
      images: imagesOf(template),
      changeCause: holder.metadata?.annotations?.['kubernetes.io/change-cause'],
      template,
    };
  });
}

/**
 * The revision a rollback goes to: the one asked for, or — like `kubectl rollout undo` without
 * `--to-revision` — the one before the newest. 404 naming the revisions there are when it does not exist.
 */
export function pickRevision(revisions: Revision[], wanted: number | undefined, what: string): Revision {
  const found = wanted === undefined ? revisions[1] : revisions.find((r) => r.revision === wanted);
  if (found) return found;
  const known = revisions.map((r) => r.revision).sort((a, b) => a - b);
  if (wanted === undefined)
    throw new AppError(
      'not_found',
      `${what} has no earlier revision to roll back to (its history: ${known.join(', ') || 'empty'})`,
    );
  throw new AppError(
    'not_found',
    `${what} has no revision ${wanted}; its history holds ${known.length ? `revisions ${known.join(', ')}` : 'no revisions'}`,
  );
}

/** Whether the workload already runs the revision's template (then a rollback changes nothing). */
export function runsTemplate(kind: WorkloadKind, workload: KubeObject, revision: Revision): boolean {
  const current = structuredClone((workload.spec?.template ?? {}) as Obj);
  const label = hashLabel[kind];
  const labels = (current.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  if (label && labels) delete labels[label];
  return isDeepStrictEqual(current, revision.template);
}

export interface Patch {
  contentType: string;
  body: unknown;
}

/**
 * The change that rolls a workload back, as kubectl makes it: Deployments get the ReplicaSet's template and its
 * annotations (JSON patch), Rollouts the template, StatefulSets and DaemonSets the ControllerRevision's data
 * (a strategic merge patch that replaces the template).
 */
export function rollbackPatch(
  kind: WorkloadKind,
  workload: KubeObject,
  revision: Revision,
  holder: KubeObject,
): Patch {
  if (historyKind(kind) === 'ControllerRevision') {
    return { contentType: 'application/strategic-merge-patch+json', body: holder.data };
  }
  const operations: Obj[] = [{ op: 'replace', path: '/spec/template', value: revision.template }];
  if (kind === 'Deployment') {
    const annotations: Record<string, string> = {};
    const own = workload.metadata?.annotations ?? {};
    for (const key of annotationsToSkip) if (own[key] !== undefined) annotations[key] = own[key];
    for (const [key, value] of Object.entries(holder.metadata?.annotations ?? {}))
      if (!annotationsToSkip.has(key)) annotations[key] = value;
    // `add` replaces the member when it exists and creates it when it does not (a Deployment without annotations).
    operations.push({ op: 'add', path: '/metadata/annotations', value: annotations });
  }
  return { contentType: 'application/json-patch+json', body: operations };
}
