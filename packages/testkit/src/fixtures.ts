import type { V1Deployment } from '@kubernetes/client-node';

/** A one-container Deployment whose pods carry `app: <name>`, for tests that act on a workload of their own. */
export function deploymentBody(name: string, replicas = 1): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: `${name}:1` }] },
      },
    },
  };
}

/**
 * An Argo CD Application of a Git path with automated sync (prune and self-heal), deploying into `destination`:
 * valid against Argo CD's real CRD, for tests that act on one of their own.
 */
export function argoApplication(name: string, destination: string, path = 'overlays/demo'): object {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.example.com/shop/deploy.git', targetRevision: 'main', path },
      destination: { server: 'https://kubernetes.default.svc', namespace: destination },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
  };
}
