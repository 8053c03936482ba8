import { ApiException, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { kubectl } from './kubectl.ts';
import type { ClusterState } from './state.ts';

export interface SeedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

export interface Created<T extends SeedObject> {
  created: T[];
  /** Present already: left exactly as they are, whoever changed them since. */
  present: T[];
}

/**
 * Creates each object that does not exist yet, in order, and leaves every existing one alone: re-running the seed on
 * a cluster someone uses must never undo their edits (ADR 0059), which an apply would.
 *
 * The missing ones go to the API server exactly as written, through `kubectl create`. `KubernetesObjectApi.create`
 * sends a built-in kind through its generated model, which silently drops every field the model renames (a
 * NetworkPolicy rule's `from`, a CRD schema's `x-kubernetes-preserve-unknown-fields`, `enum`, `default`): ADR 0063.
 * Reading is safe with it, whether an object exists is all it is asked.
 */
export async function createMissing<T extends SeedObject>(
  state: Pick<ClusterState, 'kubeconfigs'>,
  kubectlPath: string,
  objects: T[],
): Promise<Created<T>> {
  const kc = new KubeConfig();
  kc.loadFromFile(state.kubeconfigs.admin);
  const api = KubernetesObjectApi.makeApiClient(kc);
  const exists = await Promise.all(
    objects.map(({ apiVersion, kind, metadata: { name, namespace } }) =>
      api.read({ apiVersion, kind, metadata: { name, namespace } }).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiException && error.code === 404) return false;
          throw new Error(
            `reading ${objectName({ kind, metadata: { name, namespace } })}: ${error instanceof Error ? error.message : error}`,
          );
        },
      ),
    ),
  );
  const result: Created<T> = {
    created: objects.filter((_, index) => !exists[index]),
    present: objects.filter((_, index) => exists[index]),
  };
  if (result.created.length > 0) {
    await kubectl(
      state,
      kubectlPath,
      ['create', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: result.created }),
    );
  }
  return result;
}

/** `Kind namespace/name`, or `Kind name` for a cluster-wide object. */
function objectName(object: Pick<SeedObject, 'kind' | 'metadata'>): string {
  const { namespace, name } = object.metadata;
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${name}`;
}
