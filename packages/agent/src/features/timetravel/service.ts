import type { CallerView } from '../../http/caller-view.ts';
import { resourceKey } from '../../kube/discovery.ts';
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
}

const byName = (a: ChangedObject, b: ChangedObject) => a.name.localeCompare(b.name);

/**
 * What differs between two moments, grouped by kind and namespace, with each modified object's fields; only what
 * the caller's view holds (namespaces, and kinds it may list), as the timeline shows it.
 */
export function changesBetween(
  ctx: TimeTravelContext,
  view: CallerView,
  from: number,
  to: number,
): ChangesBetween {
  const { changes, notKept } = ctx.history.changesBetween(from, to);
  const resources = new Map(ctx.cluster.cache.resources.map((r) => [resourceKey(r), r]));
  const inView = view.namespaces && new Set(view.namespaces);
  const hidden = new Set(view.hiddenKinds);
  const groups = new Map<string, ChangeGroup>();
  const counts = { created: 0, deleted: 0, modified: 0 };
  for (const change of changes) {
    const resource = resources.get(change.resource);
    if (!resource || hidden.has(resource.kind)) continue;
    if (resource.namespaced && inView && !inView.has(change.namespace ?? '')) continue;
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
    place(group, change, counts);
  }
  for (const group of groups.values())
    for (const list of [group.created, group.deleted, group.modified]) list.sort(byName);
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    groups: [...groups.values()].sort(
      (a, b) => a.kind.localeCompare(b.kind) || (a.namespace ?? '').localeCompare(b.namespace ?? ''),
    ),
    counts,
    notKept,
  };
}

function place(group: ChangeGroup, change: ObjectChange, counts: ChangesBetween['counts']): void {
  const { before, after } = change;
  const uid = (after ?? before)?.metadata?.uid;
  const named = { name: change.name, ...(uid ? { uid } : {}) };
  if (!before) {
    group.created.push(named);
    counts.created += 1;
  } else if (!after) {
    group.deleted.push(named);
    counts.deleted += 1;
  } else {
    const { fields, more } = fieldChanges(before, after);
    group.modified.push({ ...named, fields, ...(more ? { moreFields: true } : {}) });
    counts.modified += 1;
  }
}
