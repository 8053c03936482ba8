import { ApiextensionsV1Api, KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import type { ClusterState } from './state.ts';
import { waitUntil } from './wait.ts';

/**
 * Established=True, read the way the API server writes it: right after a CRD is created its status has no
 * conditions (or none at all) for a moment. That is "not yet", never an error — `kubectl wait
 * --for=condition=Established` failed on it ("<nil> is of the type <nil>") on a busy machine.
 */
export function crdEstablished(crd: V1CustomResourceDefinition): boolean {
  const established = crd.status?.conditions?.find((condition) => condition.type === 'Established');
  if (established?.status === 'True') return true;
  throw new Error(
    established
      ? `${crd.metadata?.name} Established=${established.status} (${established.reason ?? ''}: ${established.message ?? ''})`
      : `${crd.metadata?.name} has no Established condition yet`,
  );
}

/** Polls every named CRD until the API server serves its kind, at most `timeoutMs`. */
export async function waitForCrds(
  state: Pick<ClusterState, 'kubeconfigs'>,
  names: string[],
  timeoutMs = 60_000,
): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(state.kubeconfigs.admin);
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const pending = new Set(names);
  await waitUntil(
    `${names.length} CustomResourceDefinitions Established`,
    async () => {
      for (const name of pending) {
        if (crdEstablished(await api.readCustomResourceDefinition({ name }))) pending.delete(name);
      }
      return true;
    },
    { timeoutMs, intervalMs: 200 },
  );
}
