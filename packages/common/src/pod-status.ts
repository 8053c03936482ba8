import type { StatusTone } from './tables.ts';

/**
 * A pod's READY, STATUS and RESTARTS as `kubectl get pods` prints them (the API server's printer: init
 * containers first, then app containers from the last to the first, then deletion; ADR 0053), and which of
 * those statuses a platform engineer calls failing (ADR 0057). The tables, the pod pages, the dashboard's
 * health and problems and the topology all read these, so a pod reads the same and counts as failing in every
 * place or in none.
 */

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** A Pod as parsed JSON: callers hold loosely typed objects; the fields are read the way Go's zero values read. */
export interface PodLike {
  metadata?: { deletionTimestamp?: string; [field: string]: unknown };
  spec?: object;
  status?: object;
}

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

export function podSummary(pod: PodLike): PodSummary {
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

/** kubectl's STATUS column for a pod. */
export const podStatusText = (pod: PodLike): string => podSummary(pod).reason;

/**
 * The statuses that mean a pod is failing, not starting, finishing or being replaced. `Init:` followed by one of
 * them fails too, and so do `ExitCode:N` and `Signal:N` (a container that ended without a reason).
 */
export const failingPodStatuses: readonly string[] = [
  'CrashLoopBackOff',
  'Error',
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'OOMKilled',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'ContainerCannotRun',
  'ContainerStatusUnknown',
  'Evicted',
  'Failed',
];
const failing = new Set(failingPodStatuses);

/** Whether kubectl's status text names a failing pod (see `failingPodStatuses`). */
export function isFailingStatus(text: string): boolean {
  const own = text.startsWith('Init:') ? text.slice('Init:'.length) : text;
  return failing.has(own) || /^(ExitCode:[1-9]\d*|Signal:\d+)$/.test(own);
}

/**
 * A failing pod: its status is a failing one, or it is in phase Failed whatever its reason (a pod the kubelet
 * rejected, such as `OutOfcpu` or `NodeAffinity`, never runs). A pod being deleted is on its way out, not failing.
 */
export function isFailingPod(pod: PodLike): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  return obj(pod.status).phase === 'Failed' || isFailingStatus(podStatusText(pod));
}
