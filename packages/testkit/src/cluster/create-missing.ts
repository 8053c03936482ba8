import { ApiException, type KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';

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
 */
export async function createMissing<T extends SeedObject>(kc: KubeConfig, objects: T[]): Promise<Created<T>> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const result: Created<T> = { created: [], present: [] };
  for (const object of objects) {
    try {
      await api.create(object);
      result.created.push(object);
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) result.present.push(object);
      else
        throw new Error(`creating ${objectName(object)}: ${error instanceof Error ? error.message : error}`);
    }
  }
  return result;
}

/** `Kind namespace/name`, or `Kind name` for a cluster-wide object. */
function objectName(object: SeedObject): string {
  const { namespace, name } = object.metadata;
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${name}`;
}
