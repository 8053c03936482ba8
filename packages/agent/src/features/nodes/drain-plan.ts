import type { KubeObject } from '@binnacle/common';

/** kubectl drain's switches, with the defaults a dashboard drain uses (see docs/agent.md). */
export interface DrainOptions {
  /** Leave DaemonSet pods where they are (they would come straight back). Default true. */
  ignoreDaemonSets: boolean;
  /** Evict pods with emptyDir volumes, losing that data. Default false. */
  deleteEmptyDirData: boolean;
  /** Evict pods no controller would recreate, and pods of DaemonSets that no longer exist. Default false. */
  force: boolean;
}

/** Why a pod stays, or why the drain refuses to start. */
export interface PlannedPod {
  namespace: string;
  name: string;
  reason?: string;
}

export interface DrainPlan {
  /** Pods to evict (with a warning where a switch allowed it). */
  evict: (PlannedPod & { pod: KubeObject })[];
  /** Pods left on the node on purpose: DaemonSet pods (with ignoreDaemonSets), mirror pods. */
  skipped: PlannedPod[];
  /** Pods that stop the drain before anything is evicted, each naming the switch that would allow it. */
  refused: PlannedPod[];
}

type Obj = Record<string, unknown>;
const mirrorAnnotation = 'kubernetes.io/config.mirror';

const finished = (pod: KubeObject) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const controllerOf = (pod: KubeObject) => pod.metadata?.ownerReferences?.find((ref) => ref.controller);
const hasEmptyDir = (pod: KubeObject) =>
  ((pod.spec?.volumes as Obj[] | undefined) ?? []).some((volume) => volume.emptyDir !== undefined);

type Verdict = { keep: 'evict' | 'skip' | 'refuse'; reason?: string } | undefined;

/**
 * kubectl drain's pod filters, in its order; the first that decides wins. `daemonSetExists` answers whether the
 * DaemonSet controlling a pod is still there (an orphaned DaemonSet pod may only go with force).
 */
const filters: ((pod: KubeObject, o: DrainOptions, daemonSetExists: (name: string) => boolean) => Verdict)[] =
  [
    (pod, o, daemonSetExists) => {
      const controller = controllerOf(pod);
      if (controller?.kind !== 'DaemonSet' || finished(pod)) return undefined;
      if (!daemonSetExists(controller.name)) {
        return o.force
          ? { keep: 'evict', reason: `its DaemonSet ${controller.name} no longer exists` }
          : {
              keep: 'refuse',
              reason: `its DaemonSet ${controller.name} no longer exists; set force to evict it`,
            };
      }
      return o.ignoreDaemonSets
        ? { keep: 'skip', reason: `DaemonSet pod (DaemonSet ${controller.name})` }
        : { keep: 'refuse', reason: 'DaemonSet pod; set ignoreDaemonSets to leave it on the node' };
    },
    (pod) =>
      pod.metadata?.annotations?.[mirrorAnnotation] !== undefined
        ? { keep: 'skip', reason: 'mirror pod of a static pod (the kubelet owns it)' }
        : undefined,
    (pod, o) => {
      if (!hasEmptyDir(pod) || finished(pod)) return undefined;
      return o.deleteEmptyDirData
        ? { keep: 'evict', reason: 'its emptyDir data will be lost' }
        : {
            keep: 'refuse',
            reason: 'has emptyDir data; set deleteEmptyDirData to evict it and lose that data',
          };
    },
    (pod, o) => {
      if (finished(pod) || controllerOf(pod)) return undefined;
      return o.force
        ? { keep: 'evict', reason: 'no controller will recreate it' }
        : { keep: 'refuse', reason: 'no controller would recreate it; set force to evict it' };
    },
  ];

/** Sorts the pods on a node the way `kubectl drain` does before it evicts anything. */
export function planDrain(
  pods: KubeObject[],
  options: DrainOptions,
  daemonSetExists: (namespace: string, name: string) => boolean,
): DrainPlan {
  const plan: DrainPlan = { evict: [], skipped: [], refused: [] };
  for (const pod of pods) {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const warnings: string[] = [];
    let verdict: Verdict;
    for (const filter of filters) {
      verdict = filter(pod, options, (ds) => daemonSetExists(namespace, ds));
      if (!verdict) continue;
      if (verdict.keep !== 'evict') break;
      if (verdict.reason) warnings.push(verdict.reason);
      verdict = undefined;
    }
    if (verdict?.keep === 'skip') plan.skipped.push({ namespace, name, reason: verdict.reason });
    else if (verdict?.keep === 'refuse') plan.refused.push({ namespace, name, reason: verdict.reason });
    else plan.evict.push({ namespace, name, pod, reason: warnings.join('; ') || undefined });
  }
  return plan;
}
