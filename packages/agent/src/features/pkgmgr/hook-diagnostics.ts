import { type KubeObject, podSummary } from '@binnacle/common';
import { parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { kubeEvents } from '../../scope/events.ts';
import { releaseRevision } from '../../scope/helm-history.ts';
import type { StoredHook, StoredRelease } from '../../scope/helm-releases.ts';
import type { PkgmgrContext } from './module.ts';

/** A rollback Helm made, and the revision whose failure it undid (Helm's own descriptions, ADR 0120). */
export interface InferredRollback {
  revision: number;
  to: number;
  at?: string;
  /** The revision just before it when that one failed: what was rolled back from, and Helm's words why. */
  failed?: { revision: number; status: string; description: string };
}

const rollbackPattern = /^Rollback to (\d+)$/;

/**
 * The rollbacks in a release's history: a revision Helm describes as `Rollback to N` (what `helm rollback` and an
 * upgrade with `--rollback-on-failure`/`--atomic` write), with the failed revision before it.
 */
export function inferRollbacks(revisions: StoredRelease[]): InferredRollback[] {
  const out: InferredRollback[] = [];
  revisions.forEach((release, index) => {
    const match = rollbackPattern.exec(release.info?.description ?? '');
    if (!match) return;
    const before = revisions[index - 1];
    out.push({
      revision: release.version,
      to: Number(match[1]),
      ...(release.info?.last_deployed ? { at: release.info.last_deployed } : {}),
      ...(before && before.info?.status === 'failed'
        ? {
            failed: {
              revision: before.version,
              status: before.info.status,
              description: before.info.description ?? '',
            },
          }
        : {}),
    });
  });
  return out.reverse();
}

/**
 * The revision whose hooks explain the release's state: the asked one (404 naming those there are); else, when
 * the newest is a rollback of a failed revision, that failed one; else the newest.
 */
export function diagnosedRevision(revisions: StoredRelease[], asked?: number): StoredRelease {
  if (asked !== undefined) return releaseRevision(revisions, asked);
  const newest = releaseRevision(revisions);
  const before = revisions.at(-2);
  if (before && rollbackPattern.test(newest.info?.description ?? '') && before.info?.status === 'failed')
    return before;
  return newest;
}

const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** The hook's own namespace, from its manifest (Helm applies a hook where its manifest says, else the release's). */
function hookNamespace(hook: StoredHook, release: StoredRelease): string {
  try {
    const [doc] = parseYamlDocuments(hook.manifest ?? '', yamlLimits.stored);
    const namespace = obj(obj(doc).metadata).namespace;
    return typeof namespace === 'string' && namespace ? namespace : release.namespace;
  } catch {
    return release.namespace;
  }
}

/** A Job's pods as its controller labels them (both label names, old and new). */
const jobPod = (job: string) => (pod: KubeObject) => {
  const labels = pod.metadata?.labels ?? {};
  return labels['batch.kubernetes.io/job-name'] === job || labels['job-name'] === job;
};

/** A pod name the Job controller would give: `<job>-<5 characters>` (for events of pods already gone). */
const podOfJob = (job: string, pod: string) => pod.startsWith(`${job}-`) && pod.length === job.length + 6;

function jobState(job: KubeObject) {
  const status = obj(job.status);
  const spec = obj(job.spec);
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Record<string, unknown>[]) : [];
  const finished = conditions.find(
    (c) => (c.type === 'Failed' || c.type === 'Complete') && c.status === 'True',
  );
  return {
    active: Number(status.active ?? 0),
    succeeded: Number(status.succeeded ?? 0),
    failed: Number(status.failed ?? 0),
    ...(typeof spec.backoffLimit === 'number' ? { backoffLimit: spec.backoffLimit } : {}),
    ...(typeof spec.activeDeadlineSeconds === 'number'
      ? { activeDeadlineSeconds: spec.activeDeadlineSeconds }
      : {}),
    ...(finished
      ? {
          condition: {
            type: String(finished.type),
            reason: String(finished.reason ?? ''),
            message: String(finished.message ?? ''),
          },
        }
      : {}),
  };
}

/** A hook pod as kubectl lists it (status, restarts of every container), with its first container's exit code. */
function podRow(pod: KubeObject) {
  const statuses = obj(pod.status).containerStatuses;
  const terminated = obj(obj(obj(Array.isArray(statuses) ? statuses[0] : undefined).state).terminated);
  const { reason, restarts } = podSummary(pod);
  return {
    name: pod.metadata?.name ?? '',
    status: reason,
    restarts,
    ...(typeof terminated.exitCode === 'number' ? { exitCode: terminated.exitCode } : {}),
  };
}

const eventsShown = 20;

/**
 * What each hook of a revision did: Helm's record of its run (phase, start, end, delete policies), the object now
 * (a Job's counts, its finishing condition and its pods) and the events of it and its pods — also for a Job
 * Helm's delete policy already removed, whose events outlive it. Logs stay with the pods' own log routes.
 */
export async function hookDiagnostics(
  ctx: PkgmgrContext,
  caller: Impersonation | undefined,
  revisions: StoredRelease[],
  asked?: number,
) {
  const release = diagnosedRevision(revisions, asked);
  const may = (namespace: string, resource: string) =>
    caller
      ? ctx.access.allowed(caller, {
          verb: 'list',
          group: resource === 'jobs' ? 'batch' : '',
          resource,
          namespace,
        })
      : Promise.resolve(true);
  const hooks = await Promise.all(
    (release.hooks ?? []).map(async (hook) => {
      const namespace = hookNamespace(hook, release);
      const name = hook.name ?? '';
      const kind = hook.kind ?? '';
      const [seeJobs, seePods, seeEvents] = await Promise.all([
        may(namespace, 'jobs'),
        may(namespace, 'pods'),
        may(namespace, 'events'),
      ]);
      const job =
        kind === 'Job' && seeJobs
          ? ctx.cluster.cache.get(ctx.cluster.resolve('jobs'), name, namespace)
          : undefined;
      const pods =
        kind === 'Job' && seePods
          ? ctx.cluster.cache.list(ctx.cluster.resolve('pods'), namespace).filter(jobPod(name))
          : [];
      const events = seeEvents
        ? kubeEvents(ctx, { namespaces: [namespace], limit: Number.MAX_SAFE_INTEGER })
            .items.filter((e) => {
              const about = obj(e.involvedObject);
              return (
                (about.kind === kind && about.name === name) ||
                (kind === 'Job' && about.kind === 'Pod' && podOfJob(name, String(about.name)))
              );
            })
            .slice(0, eventsShown)
            .map((e) => ({
              type: String(e.type ?? ''),
              reason: String(e.reason ?? ''),
              message: String(e.message ?? ''),
              object: `${String(obj(e.involvedObject).kind)}/${String(obj(e.involvedObject).name)}`,
              count: Number(e.count ?? 1),
              lastSeen: String(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? ''),
            }))
        : [];
      const run = hook.last_run ?? {};
      return {
        name,
        kind,
        namespace,
        events: hook.events ?? [],
        weight: hook.weight ?? 0,
        deletePolicies: hook.delete_policies ?? [],
        phase: run.phase || 'not run',
        ...(run.started_at && !run.started_at.startsWith('0001') ? { startedAt: run.started_at } : {}),
        ...(run.completed_at && !run.completed_at.startsWith('0001')
          ? { completedAt: run.completed_at }
          : {}),
        ...(kind === 'Job' && seeJobs ? { present: job !== undefined } : {}),
        ...(job ? { job: jobState(job) } : {}),
        pods: pods.map(podRow),
        hookEvents: events,
        readable: { jobs: seeJobs, pods: seePods, events: seeEvents },
      };
    }),
  );
  const failed = hooks.find((h) => h.phase === 'Failed');
  return {
    name: release.name,
    namespace: release.namespace,
    revision: release.version,
    status: release.info?.status ?? 'unknown',
    description: release.info?.description ?? '',
    hooks: hooks.sort((a, b) => a.weight - b.weight || a.name.localeCompare(b.name)),
    ...(failed ? { failedHook: failed.name } : {}),
    rollbacks: inferRollbacks(revisions),
  };
}
