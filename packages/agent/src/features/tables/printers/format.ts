import type { KubeObject, RelativeTime, TableCell, TableColumn, TableColumnType } from '@binnacle/common';

/**
 * Pieces every printer shares: reading untyped object fields the way Go's zero values read them, and
 * kubectl's formats for labels, selectors, containers and times (ADR 0053).
 */

export type Json = Record<string, unknown>;

/** A field as an object; absent or not an object reads as an empty one (Go's zero struct). */
export const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
export const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** Go's `fmt.Sprint(bool)`, for boolean columns. */
export const goBool = (value: unknown): string => (value === true ? 'true' : 'false');

/** A column definition; `priority` 1 for what only `-o wide` shows. */
export const column = (
  name: string,
  type: TableColumnType = 'string',
  priority: 0 | 1 = 0,
  description?: string,
): TableColumn =>
  description === undefined ? { name, type, priority } : { name, type, priority, description };

export const ageColumn: TableColumn = column('AGE', 'date', 0, 'time since the object was created');

/** A moment as kubectl prints it relative to now; a missing one is kubectl's `<unknown>`. */
export function since(timestamp: unknown, before?: string, after?: string): TableCell {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const cell: RelativeTime = { at: timestamp };
  if (before !== undefined) cell.before = before;
  if (after !== undefined) cell.after = after;
  return cell;
}

export const age = (object: KubeObject): TableCell => since(object.metadata?.creationTimestamp);

/** `labels.FormatLabels`: `k=v` sorted by key, comma-joined; none is `<none>` (a null cell). */
export function formatLabels(labels: unknown): string | null {
  const entries = Object.entries(obj(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? null : entries.map(([key, value]) => `${key}=${str(value)}`).join(',');
}

const sortedStrings = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * A LabelSelector as apimachinery's `Selector.String()`: requirements sorted by key, `k=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k`, `!k`. Undefined for a selector with an unknown operator (Go's conversion error).
 */
function selectorText(selector: Json): string | undefined {
  const requirements: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(obj(selector.matchLabels))) {
    requirements.push({ key, text: `${key}=${str(value)}` });
  }
  for (const expression of arr(selector.matchExpressions)) {
    const key = str(expression.key);
    const values = strings(expression.values);
    const list = values.length === 1 ? values[0] : sortedStrings(values).join(',');
    const operator = expression.operator;
    if (operator === 'In') requirements.push({ key, text: `${key} in (${list})` });
    else if (operator === 'NotIn') requirements.push({ key, text: `${key} notin (${list})` });
    else if (operator === 'Exists') requirements.push({ key, text: key });
    else if (operator === 'DoesNotExist') requirements.push({ key, text: `!${key}` });
    else return undefined;
  }
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return requirements.map((requirement) => requirement.text).join(',');
}

/** `metav1.FormatLabelSelector`: an absent or empty selector is `<none>`, a broken one `<error>`. */
export function formatLabelSelector(selector: unknown): string | null {
  if (selector === undefined || selector === null) return null;
  const text = selectorText(obj(selector));
  if (text === undefined) return '<error>';
  return text === '' ? null : text;
}

/** A selector the way the Deployment printer shows it: `Selector.String()`, empty when it selects all or none. */
export function selectorString(selector: unknown): string {
  if (selector === undefined || selector === null) return '';
  return selectorText(obj(selector)) ?? '<invalid>';
}

/** The wide CONTAINERS and IMAGES cells of a pod template. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = arr(obj(podSpec).containers);
  return [
    containers.map((container) => str(container.name)).join(','),
    containers.map((container) => str(container.image)).join(','),
  ];
}

export const containersColumns: TableColumn[] = [
  column('CONTAINERS', 'string', 1, 'names of each container in the template'),
  column('IMAGES', 'string', 1, 'images referenced by each container in the template'),
];

/** `apimachinery`'s `GroupKind.String()` lower-cased with a name: `deployment.apps/web`, `pod/x`. */
export function kindName(apiVersion: string, kind: string, name: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${name}`;
}
