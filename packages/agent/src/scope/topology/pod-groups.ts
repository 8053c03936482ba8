import type { KubeObject } from '@binnacle/common';

/** A group bigger than this stays one node even when asked to expand: the pods list is the place for them. */
export const maxExpandedPods = 500;

/** The app a pod without an owner belongs to, by the labels tools set; pods without one group per namespace. */
const appLabels = ['app.kubernetes.io/name', 'app', 'k8s-app'];
export const appOf = (pod: KubeObject) => {
  const labels = pod.metadata?.labels ?? {};
  for (const key of appLabels) if (labels[key]) return labels[key];
  return undefined;
};

/** The labels every one of the pods carries: what a selector matching all of them can rely on. */
export function sharedLabels(pods: KubeObject[]): Record<string, string> {
  const shared = { ...pods[0]?.metadata?.labels };
  for (const pod of pods.slice(1)) {
    const labels = pod.metadata?.labels ?? {};
    for (const [key, value] of Object.entries(shared)) if (labels[key] !== value) delete shared[key];
  }
  return shared;
}
