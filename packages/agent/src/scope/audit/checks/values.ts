import type { KubeObject } from '@binnacle/common';

/** Safe readers for the untyped parts of objects (spec, status, data). */
export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as unknown[]).map(obj) : []);
export const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const labelsOf = (v: unknown) => obj(v) as Record<string, string>;

export const nameOf = (o: KubeObject) => o.metadata?.name ?? '';
export const namespaceOf = (o: KubeObject) => o.metadata?.namespace ?? '';

/** A short, readable list: the first few items and how many more. */
export function few(items: readonly string[], most = 3): string {
  const shown = items.slice(0, most).join(', ');
  return items.length > most ? `${shown} and ${items.length - most} more` : shown;
}
