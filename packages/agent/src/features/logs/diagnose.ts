import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { callerView } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { healthOf } from '../../kube/health.ts';
import { defaultContainer } from '../../kube/pods.ts';
import { kubeEvents } from '../../scope/events.ts';
import { eventRow } from '../../scope/mcp/rows.ts';
import type { ObjectViews } from '../../scope/object-views.ts';
import { redactText } from '../../scope/redact.ts';
import { shownLines } from './grepped.ts';
import type { LogsContext } from './module.ts';
import { readPodLog } from './service.ts';
import { workloadPods } from './workload.ts';

export const diagnosedKinds = ['pod', 'deployment', 'statefulset', 'daemonset'] as const;

export interface DiagnoseQuery {
  kind: (typeof diagnosedKinds)[number];
  namespace: string;
  name: string;
  container?: string;
  tail: number;
  sinceSeconds?: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const statuses = (pod: KubeObject) => [
  ...((pod.status?.initContainerStatuses as Obj[] | undefined) ?? []),
  ...((pod.status?.containerStatuses as Obj[] | undefined) ?? []),
];
const restarts = (pod: KubeObject) => statuses(pod).reduce((sum, c) => sum + Number(c.restartCount ?? 0), 0);
const failing = (pod: KubeObject) => healthOf(pod) !== 'healthy' || restarts(pod) > 0;
const podsShown = 10;
const eventsShown = 20;

/** A container's state in words: `waiting: CrashLoopBackOff (back-off 5m0s …)`, `terminated: Error, exit 1`. */
function stateText(state: unknown): string | undefined {
  const [phase, detail] = Object.entries(obj(state))[0] ?? [];
  if (!phase) return undefined;
  const d = obj(detail);
  const parts = [
    d.reason ? String(d.reason) : undefined,
    d.exitCode !== undefined ? `exit ${String(d.exitCode)}` : undefined,
    d.signal ? `signal ${String(d.signal)}` : undefined,
    d.startedAt && phase === 'running' ? `since ${String(d.startedAt)}` : undefined,
    d.finishedAt ? `at ${String(d.finishedAt)}` : undefined,
  ].filter(Boolean);
  const message = d.message ? ` (${redactText(String(d.message))})` : '';
  return `${phase}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}${message}`;
}

/** Each container's readiness, restarts, state now and how its last run ended. */
function podState(views: ObjectViews, pod: KubeObject, now: number) {
  return {
    pod: views.view(pod, 'compact', now) as string,
    ...(pod.status?.reason
      ? { reason: pod.status.reason, message: redactText(String(pod.status.message ?? '')) }
      : {}),
    containers: statuses(pod).map((c) => ({
      name: c.name,
      ready: c.ready === true,
      restarts: Number(c.restartCount ?? 0),
      state: stateText(c.state),
      ...(obj(c.lastState).terminated ? { lastTermination: stateText(c.lastState) } : {}),
    })),
  };
}

/**
 * The pod whose log tells most: failing before healthy, then the most restarted; and its most troubled container.
 */
function logSource(pods: KubeObject[], container?: string) {
  const [pod] = [...pods].sort(
    (a, b) => Number(failing(b)) - Number(failing(a)) || restarts(b) - restarts(a),
  );
  if (!pod) return undefined;
  const troubled = [...statuses(pod)].sort(
    (a, b) =>
      Number(Boolean(obj(b.state).waiting ?? obj(b.state).terminated)) -
        Number(Boolean(obj(a.state).waiting ?? obj(a.state).terminated)) ||
      Number(b.restartCount ?? 0) - Number(a.restartCount ?? 0),
  )[0];
  const name = container ?? (troubled && failing(pod) ? String(troubled.name) : defaultContainer(pod));
  const status = statuses(pod).find((c) => c.name === name);
  // A container that crashed tells why in the log of the run that ended, not of the one waiting to start.
  const crashed = Number(status?.restartCount ?? 0) > 0 && obj(status?.lastState).terminated !== undefined;
  return { pod, container: name, previous: crashed };
}

async function logTail(
  ctx: LogsContext,
  caller: Impersonation | undefined,
  pods: KubeObject[],
  query: DiagnoseQuery,
) {
  const source = logSource(pods, query.container);
  if (!source) return undefined;
  const pod = source.pod.metadata?.name ?? '';
  const read = (previous: boolean) =>
    readPodLog(ctx, query.namespace, pod, {
      container: source.container,
      tail: query.tail,
      sinceSeconds: query.sinceSeconds,
      previous,
      as: caller,
    });
  const attempt = async (previous: boolean) => {
    const shown = { pod, container: source.container, previous };
    try {
      const log = await read(previous);
      return { ...shown, lines: await shownLines(log.lines.map((l) => l.line)) };
    } catch (error) {
      if (error instanceof AppError) return { ...shown, error: `${error.code}: ${error.message}` };
      throw error;
    }
  };
  const tail = await attempt(source.previous);
  // A crash whose run left no log (or whose log is gone) still has the current run's.
  return 'error' in tail && source.previous ? attempt(false) : tail;
}

/**
 * What an engineer looks at first when a pod or workload misbehaves, in one answer, as the caller: the object's
 * summary, its failing pods' container states, the recent events of it and its pods (and their owners), and the
 * tail of the most troubled pod's log — the previous run's when it crashed. Redacted throughout.
 */
export async function diagnose(
  ctx: LogsContext,
  views: ObjectViews,
  caller: Impersonation | undefined,
  query: DiagnoseQuery,
  now: number,
) {
  const { namespace, name } = query;
  const found = await views.get(caller, { kind: query.kind, namespace, name, verbosity: 'summary' }, now);
  const resource = ctx.cluster.resolve(query.kind);
  const shown = await callerView(ctx, caller, [namespace]);
  if (shown.namespaces?.length === 0) {
    const note = `${caller?.user} may not list pods and events in namespace ${namespace}`;
    return { object: found.resource, note };
  }
  const pods =
    query.kind === 'pod'
      ? [ctx.cluster.cache.get(ctx.cluster.resolve('pods'), name, namespace) as KubeObject]
      : workloadPods(ctx, query.kind, namespace, name, query.container).current;
  const involved = new Set([`${resource.kind}/${name}`]);
  for (const pod of pods) {
    involved.add(`Pod/${pod.metadata?.name}`);
    for (const owner of pod.metadata?.ownerReferences ?? []) involved.add(`${owner.kind}/${owner.name}`);
  }
  const events = kubeEvents(ctx, { namespaces: [namespace], limit: Number.MAX_SAFE_INTEGER }).items.filter(
    (e) => {
      const about = obj(e.involvedObject);
      return involved.has(`${String(about.kind)}/${String(about.name)}`);
    },
  );
  const troubled = pods.filter(failing);
  return {
    object: found.resource,
    pods: {
      total: pods.length,
      failing: troubled.length,
      states: (query.kind === 'pod' ? pods : troubled)
        .slice(0, podsShown)
        .map((p) => podState(views, p, now)),
    },
    events: events.slice(0, eventsShown).map(eventRow),
    logs: await logTail(ctx, caller, pods, query),
  };
}
