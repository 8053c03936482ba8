import { isFailingPod, type KubeObject, podStatusText } from '@binnacle/common';

/**
 * A pod's kubectl status and whether it fails, worked out once per cached version: the cache replaces an object
 * when it changes and never mutates it, and a dashboard reads every pod's status several times.
 */
const podStates = new WeakMap<KubeObject, { text: string; failing: boolean }>();
export function podState(pod: KubeObject): { text: string; failing: boolean } {
  let state = podStates.get(pod);
  if (!state) {
    state = { text: podStatusText(pod), failing: isFailingPod(pod) };
    podStates.set(pod, state);
  }
  return state;
}

export interface Problem {
  kind: string;
  namespace?: string;
  name: string;
  status: string;
  reason: string;
  message: string;
  ageSeconds: number;
  /** What found it: the object's runtime health, its certificate's expiry, or a danger finding of the audit. */
  source: 'health' | 'certificate' | 'audit';
  /** The audit check that found it (audit problems only). */
  check?: string;
}

const pendingGraceSeconds = 300;

type Status = Record<string, unknown>;
const num = (value: unknown) => (typeof value === 'number' ? value : 0);
/** Seconds since the object was created. */
export const problemAge = (object: KubeObject, now: number) => {
  const created = Date.parse(object.metadata?.creationTimestamp ?? '');
  return Number.isNaN(created) ? 0 : Math.max(0, Math.round((now - created) / 1000));
};
const base = (object: KubeObject, now: number) => ({
  kind: object.kind ?? '',
  namespace: object.metadata?.namespace,
  name: object.metadata?.name ?? '',
  ageSeconds: problemAge(object, now),
  source: 'health' as const,
});

/**
 * A failing pod (ADR 0057) is a problem named by its kubectl status, so pods failing the same way group together;
 * a pod pending past the grace period is one too, named by why it is not scheduled.
 */
export function podProblem(pod: KubeObject, now: number): Problem | undefined {
  const status = (pod.status ?? {}) as Status & {
    phase?: string;
    message?: string;
    containerStatuses?: Status[];
  };
  if (pod.metadata?.deletionTimestamp) return undefined;
  const { failing, text } = podState(pod);
  if (failing) {
    return {
      ...base(pod, now),
      status: text,
      reason: text,
      message: status.message ?? containerMessage(status.containerStatuses) ?? `the pod is ${text}`,
    };
  }
  if (status.phase === 'Pending' && problemAge(pod, now) > pendingGraceSeconds) {
    const unschedulable = (status.conditions as Status[] | undefined)?.find(
      (c) => c.type === 'PodScheduled' && c.status === 'False',
    );
    return {
      ...base(pod, now),
      status: 'Pending',
      reason: String(unschedulable?.reason ?? 'Pending'),
      message: String(unschedulable?.message ?? `pending for more than ${pendingGraceSeconds / 60} minutes`),
    };
  }
  return undefined;
}

/** The first message a container's waiting or terminated state carries (the why of a crash or a pull). */
function containerMessage(containers: Status[] | undefined): string | undefined {
  for (const container of containers ?? []) {
    const state = (container.state ?? {}) as Record<string, { message?: string } | undefined>;
    const message = state.waiting?.message ?? state.terminated?.message;
    if (message) return `${String(container.name)}: ${message}`;
  }
  return undefined;
}

export function workloadProblem(workload: KubeObject, now: number): Problem | undefined {
  const status = (workload.status ?? {}) as Status;
  const spec = (workload.spec ?? {}) as Status;
  switch (workload.kind) {
    case 'Deployment':
    case 'StatefulSet': {
      const want = typeof spec.replicas === 'number' ? spec.replicas : 1;
      const ready = num(status.readyReplicas);
      if (want > 0 && ready < want && problemAge(workload, now) > 60) {
        return {
          ...base(workload, now),
          status: `${ready}/${want} ready`,
          reason: 'Unavailable',
          message: `${want - ready} of ${want} replicas are not ready`,
        };
      }
      return undefined;
    }
    case 'DaemonSet': {
      const want = num(status.desiredNumberScheduled);
      const ready = num(status.numberReady);
      if (ready < want && problemAge(workload, now) > 60) {
        return {
          ...base(workload, now),
          status: `${ready}/${want} ready`,
          reason: 'Unavailable',
          message: `${want - ready} of ${want} pods are not ready`,
        };
      }
      return undefined;
    }
    case 'Job': {
      const failed = (status.conditions as Status[] | undefined)?.find(
        (c) => c.type === 'Failed' && c.status === 'True',
      );
      return failed
        ? {
            ...base(workload, now),
            status: 'Failed',
            reason: String(failed.reason ?? 'Failed'),
            message: String(failed.message ?? 'the job failed'),
          }
        : undefined;
    }
    case 'Node': {
      const ready = (status.conditions as Status[] | undefined)?.find((c) => c.type === 'Ready');
      return ready && ready.status !== 'True'
        ? {
            ...base(workload, now),
            status: 'NotReady',
            reason: String(ready.reason ?? 'NotReady'),
            message: String(ready.message ?? 'the node is not ready'),
          }
        : undefined;
    }
    case 'PersistentVolumeClaim':
      return status.phase === 'Pending' && problemAge(workload, now) > 60
        ? {
            ...base(workload, now),
            status: 'Pending',
            reason: 'Unbound',
            message: 'the claim is not bound to a volume',
          }
        : undefined;
    default:
      return undefined;
  }
}
