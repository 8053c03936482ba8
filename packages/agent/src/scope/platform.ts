import type { KubeObject } from '@binnacle/common';

export type Platform =
  | 'gke'
  | 'gke-autopilot'
  | 'eks'
  | 'aks'
  | 'openshift'
  | 'k3s'
  | 'rke2'
  | 'kind'
  | 'minikube'
  | 'docker-desktop'
  | 'kwok'
  | 'generic';

export interface PlatformInputs {
  gitVersion?: string;
  serverUrl: string;
  nodes: KubeObject[];
  /** API groups the cluster serves (OpenShift is recognized by its own). */
  groups: readonly string[];
}

const label = (node: KubeObject, key: string) => node.metadata?.labels?.[key];
const providerId = (node: KubeObject) =>
  String((node.spec as { providerID?: string } | undefined)?.providerID ?? '');

/** Names the distribution from the server version, node labels and provider IDs, and the API groups served. */
export function detectPlatform({ gitVersion = '', serverUrl, nodes, groups }: PlatformInputs): Platform {
  const first = nodes[0];
  if (groups.includes('config.openshift.io') || groups.includes('route.openshift.io')) return 'openshift';
  if (/-gke\./.test(gitVersion) || nodes.some((n) => providerId(n).startsWith('gce://'))) {
    return nodes.some((n) => label(n, 'cloud.google.com/gke-provisioning') !== undefined) ||
      /autopilot/i.test(serverUrl)
      ? 'gke-autopilot'
      : 'gke';
  }
  if (
    /-eks-/.test(gitVersion) ||
    nodes.some((n) => providerId(n).startsWith('aws://')) ||
    /\.eks\.amazonaws\.com/.test(serverUrl)
  )
    return 'eks';
  if (
    nodes.some(
      (n) => providerId(n).startsWith('azure://') || label(n, 'kubernetes.azure.com/cluster') !== undefined,
    ) ||
    /\.azmk8s\.io/.test(serverUrl)
  )
    return 'aks';
  if (/\+rke2/.test(gitVersion)) return 'rke2';
  if (/\+k3s/.test(gitVersion)) return 'k3s';
  if (nodes.some((n) => providerId(n).startsWith('kind://'))) return 'kind';
  if (nodes.some((n) => label(n, 'minikube.k8s.io/name') !== undefined)) return 'minikube';
  if (first?.metadata?.name === 'docker-desktop') return 'docker-desktop';
  if (nodes.length > 0 && nodes.every((n) => n.metadata?.annotations?.['kwok.x-k8s.io/node'] === 'fake'))
    return 'kwok';
  return 'generic';
}
