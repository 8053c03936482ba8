import type { StatusTone, TableCell } from '@binnacle/common';
import type { KubeObject } from '../../../kube/objects.ts';
import { age, ageColumn, arr, column, type Json, num, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/**
 * The pod row as the API server's printer computes it (kubectl's READY, STATUS, RESTARTS): init containers
 * first, then app containers from the last to the first, then deletion (ADR 0053).
 */

export interface PodSummary {
  ready: string;
  reason: string;
  restarts: number;
  /** When the most recent counted restart ended; absent when none is known. */
  lastRestart?: string;
}

const later = (current: string | undefined, candidate: unknown): string | undefined => {
  if (typeof candidate !== 'string' || candidate === '') return current;
  return current === undefined || Date.parse(candidate) > Date.parse(current) ? candidate : current;
};

const lastTerminated = (status: Json) => obj(obj(status.lastState).terminated).finishedAt;

/** A terminated state's reason, else `Signal:N` or `ExitCode:N`, with `prefix` (`Init:` for init containers). */
function terminatedReason(terminated: Json, prefix: string): string {
  if (str(terminated.reason)) return `${prefix}${str(terminated.reason)}`;
  if (num(terminated.signal) !== 0) return `${prefix}Signal:${num(terminated.signal)}`;
  return `${prefix}ExitCode:${num(terminated.exitCode)}`;
}

const conditionTrue = (conditions: Json[], type: string) =>
  conditions.some((condition) => condition.type === type && condition.status === 'True');

const terminalPhases = new Set(['Succeeded', 'Failed']);

export function podSummary(pod: KubeObject): PodSummary {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const conditions = arr(status.conditions);
  const initSpecs = arr(spec.initContainers);
  // A sidecar (an init container that restarts always) counts as a container of the pod.
  const sidecars = new Set(
    initSpecs.filter((container) => container.restartPolicy === 'Always').map((c) => str(c.name)),
  );
  const total = arr(spec.containers).length + sidecars.size;
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const condition of conditions) {
    if (condition.type === 'PodScheduled' && condition.reason === 'SchedulingGated')
      reason = 'SchedulingGated';
  }

  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;
  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  for (const [index, container] of initStatuses.entries()) {
    const isSidecar = sidecars.has(str(container.name));
    restarts += num(container.restartCount);
    lastRestart = later(lastRestart, lastTerminated(container));
    if (isSidecar) {
      sidecarRestarts += num(container.restartCount);
      lastSidecarRestart = later(lastSidecarRestart, lastTerminated(container));
    }
    const state = obj(container.state);
    const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
    const waitingReason = str(obj(state.waiting).reason);
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (isSidecar && container.started === true) {
      if (container.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (state.waiting !== undefined && waitingReason !== '' && waitingReason !== 'PodInitializing') {
      reason = `Init:${waitingReason}`;
    } else reason = `Init:${index}/${initSpecs.length}`;
    initializing = true;
    break;
  }

  if (!initializing || conditions.find((c) => c.type === 'Initialized')?.status === 'True') {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    let errorReason = '';
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i] ?? {};
      restarts += num(container.restartCount);
      lastRestart = later(lastRestart, lastTerminated(container));
      const state = obj(container.state);
      const waitingReason = str(obj(state.waiting).reason);
      if (state.waiting !== undefined && waitingReason !== '') reason = waitingReason;
      else if (state.terminated !== undefined) {
        const terminated = obj(state.terminated);
        reason = terminatedReason(terminated, '');
        if (num(terminated.exitCode) !== 0) errorReason = reason;
      } else if (container.ready === true && state.running !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed') {
      if (hasRunning && conditionTrue(conditions, 'Ready')) reason = 'Running';
      else if (errorReason !== '') reason = errorReason;
      else if (hasRunning) reason = 'NotReady';
    }
  }

  if (pod.metadata?.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && !terminalPhases.has(phase)) reason = 'Terminating';

  const summary: PodSummary = { ready: `${ready}/${total}`, reason, restarts };
  if (lastRestart !== undefined) summary.lastRestart = lastRestart;
  return summary;
}

const okReasons = new Set(['Running']);
const progressReasons = new Set([
  'Pending',
  'ContainerCreating',
  'PodInitializing',
  'Terminating',
  'SchedulingGated',
]);
const mutedReasons = new Set(['Completed', 'Succeeded']);
const warningReasons = new Set(['NotReady', 'Unknown']);

/** How the UI colours a pod's status text: anything not known to be fine or under way is an error. */
export function podTone(reason: string): StatusTone {
  if (okReasons.has(reason)) return 'ok';
  if (mutedReasons.has(reason)) return 'muted';
  if (progressReasons.has(reason) || /^Init:\d+\/\d+$/.test(reason)) return 'progress';
  if (warningReasons.has(reason)) return 'warning';
  return 'error';
}

/** RESTARTS: the count, with how long ago the last one ended when there was one: `5 (3m ago)`. */
function restartsCell({ restarts, lastRestart }: PodSummary): TableCell {
  if (restarts === 0 || lastRestart === undefined) return String(restarts);
  return { before: `${restarts} (`, at: lastRestart, after: ' ago)' };
}

function readinessGates(spec: Json, conditions: Json[]): string | null {
  const gates = arr(spec.readinessGates);
  if (gates.length === 0) return null;
  const passed = gates.filter((gate) => {
    const condition = conditions.find((c) => c.type === gate.conditionType);
    return condition?.status === 'True';
  }).length;
  return `${passed}/${gates.length}`;
}

export const podPrinter: Printer = {
  columns: [
    column('READY', 'string', 0, 'ready containers of all containers'),
    column('STATUS', 'string', 0, 'the aggregate status of the containers'),
    column('RESTARTS', 'string', 0, 'container restarts, and how long ago the last one was'),
    ageColumn,
    column('IP', 'string', 1),
    column('NODE', 'string', 1),
    column('NOMINATED NODE', 'string', 1),
    column('READINESS GATES', 'string', 1),
  ],
  print(pod) {
    const spec = obj(pod.spec);
    const status = obj(pod.status);
    const summary = podSummary(pod);
    return {
      cells: [
        summary.ready,
        summary.reason,
        restartsCell(summary),
        age(pod),
        str(arr(status.podIPs)[0]?.ip) || null,
        str(spec.nodeName) || null,
        str(status.nominatedNodeName) || null,
        readinessGates(spec, arr(status.conditions)),
      ],
      status: { text: summary.reason, tone: podTone(summary.reason) },
    };
  },
};
