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
