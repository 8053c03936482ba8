import type { KubeObject } from '@binnacle/common';
import { basePath } from '../../api/client.ts';
import { age } from '../../ui/states.tsx';

export const nameOf = (o: KubeObject) => o.metadata?.name ?? '';
export const namespaceOf = (o: KubeObject) => o.metadata?.namespace;

/** Age the way kubectl prints it, from creationTimestamp. */
export function ageOf(o: KubeObject, now = Date.now()): string {
  const created = Date.parse(o.metadata?.creationTimestamp ?? '');
  return Number.isNaN(created) ? '—' : age((now - created) / 1000);
}

/**
 * The address of an object's page (`_` for a cluster-scoped object's namespace), with `search` as the router
 * serialises it, for a plain link (`PlainLink`): the router's `<Link>` costs too much where links mount by the
 * hundred (the topology, a table while it scrolls).
 */
export const objectHref = (to: { kind: string; namespace?: string; name: string }, search = '') =>
  `${basePath}/resources/${[to.kind, to.namespace || '_', to.name].map(encodeURIComponent).join('/')}${search}`;

/** The address of a kind's table (the Resources page), with `search` serialised as for `objectHref`. */
export const kindHref = (kind: string, search = '') =>
  `${basePath}/resources/${encodeURIComponent(kind)}${search}`;
