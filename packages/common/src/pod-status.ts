/**
 * A pod's status as `kubectl get pods` prints it, and which of those a platform engineer calls failing (ADR 0057).
 * The dashboard's health, its problems, the topology's health and the links into the pods table all read these,
 * so a pod counts as failing in every place or in none.
 */

interface ContainerState {
  waiting?: { reason?: string };
  running?: unknown;
  terminated?: { reason?: string; exitCode?: number; signal?: number };
}
interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  state?: ContainerState;
}
/** The parts of a Pod the status reads, as the Kubernetes object has them. */
interface PodFields {
  metadata?: { deletionTimestamp?: string };
  spec?: { initContainers?: { name?: string; restartPolicy?: string }[] };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: { type?: string; status?: string }[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}
/** A Pod as parsed JSON: callers hold loosely typed objects, the fields are read as `PodFields`. */
export interface PodLike {
  metadata?: { deletionTimestamp?: string };
  spec?: object;
  status?: object;
}

/** Why a terminated container ended, in kubectl's words. */
const terminatedText = (t: NonNullable<ContainerState['terminated']>) =>
  t.reason || (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`);

const condition = (pod: PodFields, type: string) =>
  pod.status?.conditions?.find((c) => c.type === type)?.status;

/** The init containers' part: `Init:<reason>` or `Init:i/n` while one is not done, undefined once all are. */
function initText(pod: PodFields): string | undefined {
  const declared = pod.spec?.initContainers ?? [];
  const statuses = pod.status?.initContainerStatuses ?? [];
  for (const [i, container] of statuses.entries()) {
    const { waiting, terminated } = container.state ?? {};
    if (terminated && terminated.exitCode === 0) continue;
    // A sidecar (an init container that restarts always) is done once started.
    const sidecar = declared.find((d) => d.name === container.name)?.restartPolicy === 'Always';
    if (sidecar && container.started) continue;
    if (terminated) return `Init:${terminatedText(terminated)}`;
    if (waiting?.reason && waiting.reason !== 'PodInitializing') return `Init:${waiting.reason}`;
    return `Init:${i}/${declared.length || statuses.length}`;
  }
  return undefined;
}

/** kubectl's STATUS column (its printer's algorithm, pkg/printers/internalversion): reason over phase. */
export function podStatusText(object: PodLike): string {
  const pod = object as PodFields;
  const status = pod.status ?? {};
  let text = status.reason || status.phase || 'Unknown';
  const init = initText(pod);
  if (init === undefined || condition(pod, 'Initialized') === 'True') {
    let running = false;
    const containers = status.containerStatuses ?? [];
    // The first container's state wins: kubectl walks them backwards, each overwriting the last.
    for (const container of [...containers].reverse()) {
      const { waiting, terminated } = container.state ?? {};
      if (waiting?.reason) text = waiting.reason;
      else if (terminated) text = terminatedText(terminated);
      else if (container.ready && container.state?.running) running = true;
    }
    if (text === 'Completed' && running) text = condition(pod, 'Ready') === 'True' ? 'Running' : 'NotReady';
  } else {
    text = init;
  }
  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (pod.metadata?.deletionTimestamp) {
    if (status.reason === 'NodeLost') return 'Unknown';
    if (!terminal) return 'Terminating';
  }
  return text;
}

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
  return (pod as PodFields).status?.phase === 'Failed' || isFailingStatus(podStatusText(pod));
}
