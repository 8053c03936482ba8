import type { CallerView } from '../../http/caller-view.ts';
import { type ApiResource, resourceKey } from '../../kube/discovery.ts';
import { iso } from '../../scope/history/cluster-history.ts';
import { fieldChanges } from '../../scope/history/fields.ts';
import type { ObjectChange } from '../../scope/history/versions.ts';
import type { FieldChange } from '../../scope/timeline/types.ts';
import type { TimeTravelContext } from './module.ts';

export interface ChangedObject {
  name: string;
  uid?: string;
}

export interface ModifiedObject extends ChangedObject {
  fields: FieldChange[];
  /** Some fields were left out (more than the answer lists per object). */
  moreFields?: boolean;
}

/** One kind in one namespace: what was created, deleted and modified between the two moments. */
export interface ChangeGroup {
  kind: string;
  group: string;
  namespace?: string;
  created: ChangedObject[];
  deleted: ChangedObject[];
  modified: ModifiedObject[];
}

export interface ChangesBetween {
  from: string;
  to: string;
  groups: ChangeGroup[];
  counts: { created: number; deleted: number; modified: number };
  /** Kinds whose kept past does not reach back to `from` (synced later): their changes are not listed. */
  notKept: string[];
  /** More objects changed than `limit`: the counts are whole, the groups list the first `limit` by kind and name. */
  truncated?: boolean;
}

/** Objects an answer lists (each modified one with its field diff): the default and the most. */
export const changesLimit = { default: 1000, max: 10_000 };

/**
 * What differs between two moments, grouped by kind and namespace, with each modified object's fields; only what
 * the caller's view holds (namespaces, and kinds it may list), as the timeline shows it.
 */
export function changesBetween(
  ctx: TimeTravelContext,
  view: CallerView,
  moments: { from: number; to: number; only?: { resource: ApiResource; name?: string } },
  limit = changesLimit.default,
): ChangesBetween {
  const { from, to, only } = moments;
  const onlyKey = only && resourceKey(only.resource);
  const result = ctx.history.changesBetween(from, to);
  const changes = only
    ? result.changes.filter((c) => c.resource === onlyKey && (!only.name || c.name === only.name))
    : result.changes;
  const notKept = only ? result.notKept.filter((key) => key === onlyKey) : result.notKept;
  const resources = new Map(ctx.cluster.cache.resources.map((r) => [resourceKey(r), r]));
  const inView = view.namespaces && new Set(view.namespaces);
  const hidden = new Set(view.hiddenKinds);
  const groups = new Map<string, ChangeGroup>();
  const counts = { created: 0, deleted: 0, modified: 0 };
  const visible = changes
    .flatMap((change) => {
      const resource = resources.get(change.resource);
      if (!resource || hidden.has(resource.kind)) return [];
      if (resource.namespaced && inView && !inView.has(change.namespace ?? '')) return [];
      counts[change.before ? (change.after ? 'modified' : 'deleted') : 'created'] += 1;
      return [{ change, resource }];
    })
    .sort(
      (a, b) =>
        a.resource.kind.localeCompare(b.resource.kind) ||
        (a.change.namespace ?? '').localeCompare(b.change.namespace ?? '') ||
        a.change.name.localeCompare(b.change.name),
    );
  // Field diffs are the work: only the objects listed get one.
  for (const { change, resource } of visible.slice(0, limit)) {
    const key = `${change.resource}/${change.namespace ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        kind: resource.kind,
        group: resource.group,
        ...(change.namespace ? { namespace: change.namespace } : {}),
        created: [],
        deleted: [],
        modified: [],
      };
      groups.set(key, group);
    }
    place(group, change);
  }
  return {
    from: iso(from),
    to: iso(to),
    // In the order they were listed: by kind, namespace and name.
    groups: [...groups.values()],
    counts,
    notKept,
    ...(visible.length > limit ? { truncated: true } : {}),
  };
}

function place(group: ChangeGroup, change: ObjectChange): void {
  const { before, after } = change;
  const uid = (after ?? before)?.metadata?.uid;
  const named = { name: change.name, ...(uid ? { uid } : {}) };
  if (!before) group.created.push(named);
  else if (!after) group.deleted.push(named);
  else {
    const { fields, more } = fieldChanges(before, after);
    group.modified.push({ ...named, fields, ...(more ? { moreFields: true } : {}) });
  }
}
