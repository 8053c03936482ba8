import type { KubeObject } from '@binnacle/common';
import type { FieldChange } from '../timeline/types.ts';

type Json = unknown;
const isObject = (value: Json): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
/** Lists whose items carry a name (containers, env, ports, conditions by type) are matched by it, not by position. */
const itemName = (item: Json): string | undefined => {
  if (!isObject(item)) return undefined;
  const name = item.name ?? item.type;
  return typeof name === 'string' ? name : undefined;
};
const maxText = 300;
/** Bookkeeping the API server changes on every write: not a change anyone made. */
const ignored = new Set(['metadata.resourceVersion', 'metadata.managedFields']);

function shown(value: Json): Json {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= maxText) return value;
  return `${text.slice(0, maxText)}… (${text.length} characters)`;
}

function walk(path: string, before: Json, after: Json, out: FieldChange[], limit: number): void {
  if (out.length > limit || ignored.has(path)) return;
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
      walk(path ? `${path}.${key}` : key, before[key], after[key], out, limit);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const names = before.map(itemName);
    const named = names.every(Boolean) && after.every((item) => itemName(item) !== undefined);
    if (named) {
      const old = new Map(before.map((item) => [itemName(item), item]));
      const now = new Map(after.map((item) => [itemName(item), item]));
      for (const name of new Set([...old.keys(), ...now.keys()]))
        walk(`${path}[${name}]`, old.get(name), now.get(name), out, limit);
      return;
    }
    if (before.length === after.length) {
      for (let i = 0; i < before.length; i += 1) walk(`${path}[${i}]`, before[i], after[i], out, limit);
      return;
    }
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  out.push({
    path,
    ...(before === undefined ? {} : { old: shown(before) }),
    ...(after === undefined ? {} : { new: shown(after) }),
  });
}

/**
 * Every field that differs between two states of one object, as paths (`spec.template.spec.containers[app].image`),
 * with long values cut; at most `limit` (`more` says whether some were left out). Named list items are matched by
 * name, so a container added first does not read as every container changed.
 */
export function fieldChanges(
  before: KubeObject,
  after: KubeObject,
  limit = 40,
): { fields: FieldChange[]; more: boolean } {
  const out: FieldChange[] = [];
  walk('', before, after, out, limit);
  return { fields: out.slice(0, limit), more: out.length > limit };
}
