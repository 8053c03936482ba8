import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { requireAccess } from '../../http/caller.ts';
import { namespacesToList } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { scopeOf } from '../../kube/discovery.ts';
import { type HealthWhy, healthWhy } from '../../kube/health.ts';
import { getResource, listResources } from '../../kube/object-reads.ts';
import type { AiContext } from './module.ts';
import { type Verbosity, view } from './views.ts';

/** Limits that keep an answer within a model's context: objects per list, and characters per answer. */
export const aiLimits = { defaultItems: 50, maxItems: 200, maxChars: 200_000 };

export interface AiList {
  kind: string;
  group: string;
  namespaced: boolean;
  verbosity: Verbosity;
  /** Objects that matched; `items` may hold fewer (see `truncated`). */
  total: number;
  items: (string | KubeObject)[];
  /** Says what was left out and how to ask for it, when something was. */
  truncated?: string;
}

/** Items up to a character budget: an answer is never megabytes, and says so when cut. */
function withinBudget(items: (string | KubeObject)[], budget: number) {
  let used = 0;
  const kept: (string | KubeObject)[] = [];
  for (const item of items) {
    const size = typeof item === 'string' ? item.length : JSON.stringify(item).length;
    if (used + size > budget && kept.length > 0) break;
    used += size;
    kept.push(item);
  }
  return kept;
}

/**
 * A kind's objects as a model should read them: redacted, at a verbosity, at most `limit` and 200 000 characters.
 * A caller who may list the kind in no namespace gets a 403 naming that, never an empty list that looks like truth.
 */
export async function aiList(
  ctx: AiContext,
  caller: Impersonation | undefined,
  query: {
    kind: string;
    group?: string;
    namespaces?: string[];
    labelSelector?: string;
    verbosity: Verbosity;
    limit?: number;
    /** A past moment (ms): the objects as they were then (time travel). */
    at?: number;
  },
  now = Date.now(),
): Promise<AiList> {
  const resource = ctx.cluster.resolve(query.kind, query.group);
  const namespaces = await namespacesToList(ctx, caller, resource, query.namespaces);
  if (caller && namespaces?.length === 0)
    throw new AppError('forbidden', `${caller.user} cannot list ${resource.plural} in any namespace`);
  const limit = Math.min(query.limit ?? aiLimits.defaultItems, aiLimits.maxItems);
  const { at } = query;
  const history = ctx.history;
  const listed = await listResources(
    ctx.cluster,
    { kind: query.kind, group: query.group, namespaces, labelSelector: query.labelSelector, limit },
    at === undefined ? undefined : (past, within) => history.listAt(past, at, within),
  );
  const total = listed.total ?? listed.items.length;
  const items = withinBudget(
    listed.items.map((object) => view(object, query.verbosity, now)),
    aiLimits.maxChars,
  );
  const more = listed.continue !== undefined || items.length < listed.items.length;
  return {
    kind: listed.kind,
    group: listed.group,
    namespaced: listed.namespaced,
    verbosity: query.verbosity,
    total,
    items,
    ...(more
      ? {
          truncated: `showing ${items.length} of ${listed.total ?? 'more'}: narrow it with a namespace or a label selector, ${
            items.length < listed.items.length
              ? 'or ask for compact verbosity'
              : `or raise limit (at most ${aiLimits.maxItems})`
          }`,
        }
      : {}),
  };
}

/** One object, redacted, at a verbosity (the caller needs `get` on it). */
export async function aiGet(
  ctx: AiContext,
  caller: Impersonation | undefined,
  query: { kind: string; namespace: string; name: string; group?: string; verbosity: Verbosity },
  now = Date.now(),
): Promise<{ verbosity: Verbosity; resource: string | KubeObject; health: HealthWhy }> {
  const resource = ctx.cluster.resolve(query.kind, query.group);
  await requireAccess(ctx, caller, {
    verb: 'get',
    group: resource.group,
    resource: resource.plural,
    namespace: scopeOf(resource, query.namespace),
  });
  const object = await getResource(ctx.cluster, query.kind, query.namespace, query.name, query.group);
  // The health is judged on the object before redaction: a model sees the same health and why as the UI.
  return {
    verbosity: query.verbosity,
    resource: view(object, query.verbosity, now),
    health: healthWhy(object),
  };
}
