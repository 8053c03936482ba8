import type { KubeObject } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import type { ApiResource } from './discovery.ts';

/**
 * The one field selector the list route takes: the pods bound to a node (`spec.nodeName=kwok-node-1`), or not
 * bound yet (`spec.nodeName=`), as `kubectl get pods --field-selector` writes it. The API server's wider set
 * (other fields, `!=`, several terms) is not needed by any page, so the schema refuses it rather than the cache
 * half-understanding it.
 */
export const fieldSelectorPattern = '^spec\\.nodeName=(?:[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?)?$';

/** Whether a listed object matches the selector (already checked against the pattern), for cached lists. */
export function fieldMatcher(resource: ApiResource, selector: string): (object: KubeObject) => boolean {
  if (resource.group !== '' || resource.plural !== 'pods')
    throw badRequest(`query parameter "fieldSelector" applies to pods only, not ${resource.plural}`);
  const node = selector.slice('spec.nodeName='.length);
  return (object) => ((object.spec as { nodeName?: string } | undefined)?.nodeName ?? '') === node;
}
