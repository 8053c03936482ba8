/**
 * Operations that turn one JSON value into another: each sets (or, without `value`, removes) the value at a path
 * of keys and indexes. A past state is kept as the operations that turn its successor back into it (ADR 0114).
 */
export interface Operation {
  path: (string | number)[];
  value?: unknown;
}

type Container = Record<string, unknown> | unknown[];
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function walk(path: (string | number)[], from: unknown, to: unknown, out: Operation[]): void {
  if (from === to) return;
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) if (!(key in to)) out.push({ path: [...path, key] });
    for (const [key, value] of Object.entries(to)) walk([...path, key], from[key], value, out);
    return;
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    for (let i = 0; i < to.length; i += 1) walk([...path, i], from[i], to[i], out);
    return;
  }
  // Scalars that are equal, or equal containers of other shapes, need no operation.
  if (typeof from !== 'object' || typeof to !== 'object' || JSON.stringify(from) !== JSON.stringify(to))
    out.push({ path, value: to });
}

/** The operations that turn `from` into `to` (both JSON: objects, arrays, strings, numbers, booleans, null). */
export function operations(from: unknown, to: unknown): Operation[] {
  const out: Operation[] = [];
  walk([], from, to, out);
  return out;
}

/**
 * `value` with the operations applied, sharing every part they do not touch (containers on an operation's path
 * are copied, so `value` itself is never changed: it may be an object the informer cache holds).
 */
export function applied<T>(value: T, ops: readonly Operation[]): T {
  let root: unknown = value;
  for (const op of ops) {
    if (op.path.length === 0) {
      root = op.value;
      continue;
    }
    const copy = (node: unknown): Container => (Array.isArray(node) ? [...node] : { ...(node as object) });
    root = copy(root);
    let parent = root as Container;
    for (const key of op.path.slice(0, -1)) {
      const child = copy((parent as Record<string | number, unknown>)[key]);
      (parent as Record<string | number, unknown>)[key] = child;
      parent = child;
    }
    const last = op.path.at(-1) as string | number;
    if ('value' in op) (parent as Record<string | number, unknown>)[last] = op.value;
    else if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last as string];
  }
  return root as T;
}

/** The value at `path` in `value`, and whether the path leads anywhere. */
function at(value: unknown, path: readonly (string | number)[]): { found: boolean; value?: unknown } {
  let node = value;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in node)) return { found: false };
    node = (node as Record<string | number, unknown>)[key];
  }
  return { found: true, value: node };
}

/**
 * The operations that turn a state into `next`, from those that turn `next` back into it (`back`): they touch
 * the same paths, with `next`'s values there (none where `next` has nothing). The history keeps the way back in
 * memory and writes the way forward to disk, and this spares a second walk of both states.
 */
export function forwardOf(back: readonly Operation[], next: unknown): Operation[] {
  return back.map(({ path }) => {
    const found = at(next, path);
    return found.found ? { path, value: found.value } : { path };
  });
}
