import { groupOf, type KubeObject, mapConcurrently } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { waitUntil } from '@binnacle/testkit';
import { KubeClient } from '../../kube/client.ts';
import { type ApiResource, collectionPath, discover, resolveKind } from '../../kube/discovery.ts';
import { resolveTarget } from '../../kube/kubeconfig.ts';
import type { StateFixture } from './fixture.ts';
import { ecosystemStates } from './index.ts';

export interface PlantedStates {
  /** Every integration's states, by integration id, as created. */
  states: Record<string, StateFixture[]>;
  /** The served resource of a fixture's object (its plural and scope). */
  resourceOf(object: KubeObject): ApiResource;
  /** Deletes the cluster-scoped objects (the namespaced ones go with their namespace). */
  remove(): Promise<void>;
}

/**
 * Creates every integration's objects on the test control plane against the projects' real CRDs, their statuses
 * written as the controllers write them: through the status subresource where the CRD has one (the create drops
 * the status there), as part of the object where it has none (Velero, PolicyReports).
 */
export async function plantEcosystemStates(
  kubeconfig: string,
  namespace: string,
  prefix: string,
  /** Integration ids to plant; all when left out. */
  only?: readonly string[],
): Promise<PlantedStates> {
  const client = new KubeClient(await resolveTarget({ kubeconfig }));
  const states = Object.fromEntries(
    Object.entries(ecosystemStates(namespace, prefix)).filter(([id]) => !only || only.includes(id)),
  );
  const objects = Object.values(states).flatMap((fixtures) => fixtures.map((f) => f.object));
  let resources: ApiResource[] = [];
  const resourceOf = (object: KubeObject) =>
    resolveKind(resources, object.kind ?? '', groupOf(object.apiVersion));
  // A CRD established a moment ago may not be in discovery yet: asked again, a bounded number of times.
  await waitUntil(
    'the ecosystem CRDs in discovery',
    async () => {
      resources = await discover(client);
      objects.forEach(resourceOf);
      return true;
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  );
  // At the fixture's own version, which need not be the one discovery prefers (Crossplane's XRD serves v2 first).
  const collectionOf = (object: KubeObject) => {
    const resource = resourceOf(object);
    const version = (object.apiVersion ?? '').split('/').pop() ?? resource.version;
    return collectionPath({ ...resource, version }, resource.namespaced ? namespace : undefined);
  };
  const pathOf = (object: KubeObject) => `${collectionOf(object)}/${object.metadata?.name}`;
  await mapConcurrently(objects, 8, async (object) => {
    await client.request({ method: 'POST', path: collectionOf(object), body: object });
    if (object.status === undefined) return;
    await client
      .request({
        method: 'PATCH',
        path: `${pathOf(object)}/status`,
        body: { status: object.status },
        contentType: 'application/merge-patch+json',
      })
      .catch((error: unknown) => {
        // No status subresource: the create kept the status.
        if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      });
  });
  return {
    states,
    resourceOf,
    async remove() {
      const clusterScoped = objects.filter((object) => !resourceOf(object).namespaced);
      await mapConcurrently(clusterScoped, 8, (object) =>
        client.request({ method: 'DELETE', path: pathOf(object) }).catch(() => undefined),
      );
    },
  };
}
