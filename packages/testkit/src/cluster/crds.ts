import { ApiextensionsV1Api, KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { appliedNames, applyArgs, kubectl } from './kubectl.ts';
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

/**
 * Server-side applies the CRDs in the given files and waits until the API server serves them. Always an apply, also
 * where they exist: a CRD is the schema of its kind, not data a user edits, and an older schema would prune fields
 * newer code writes (ADR 0063).
 */
export async function installCrds(
  state: Pick<ClusterState, 'kubeconfigs'>,
  kubectlPath: string,
  files: string[],
  fieldManager: string,
): Promise<void> {
  const applied = await kubectl(state, kubectlPath, [
    ...applyArgs(fieldManager),
    '-o',
    'name',
    ...files.flatMap((file) => ['-f', file]),
  ]);
  await waitForCrds(state, appliedNames(applied));
}
