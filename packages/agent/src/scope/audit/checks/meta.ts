import described from './check-meta.json' with { type: 'json' };
import { docs, frameworks } from './sources.ts';
import type { Category, CheckMeta, Severity } from './types.ts';

/**
 * The checks' descriptions live in check-meta.json, keyed by check id: what each looks for, how to fix it, its
 * default severity, the framework sections (keys into sources.ts), the Kubernetes pages and other tools' ids.
 * The code next to each check's logic names only its id and the kinds it reads.
 */
export const categories: readonly Category[] = ['Security', 'Reliability', 'Efficiency'];
const severities: readonly Severity[] = ['warning', 'danger'];

interface Described {
  title: string;
  category: string;
  defaultSeverity: string;
  description: string;
  remediation: string;
  frameworks: string[];
  references: string[];
  aliases: string[];
}

const entries: Readonly<Record<string, Described>> = described;

/** The ids check-meta.json describes. */
export const describedIds: readonly string[] = Object.keys(entries);

function lookup(map: ReadonlyMap<string, string>, key: string, id: string): string {
  const value = map.get(key);
  if (value === undefined) throw new Error(`audit check ${id} cites an unknown source ${key}`);
  return value;
}

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

/** A check's metadata from check-meta.json; throws (at module load) when it is missing or malformed. */
export function metaFor(id: string, appliesTo: readonly string[]): CheckMeta {
  const entry = entries[id];
  if (!entry) throw new Error(`audit check ${id} is not described in check-meta.json`);
  const { category, defaultSeverity } = entry;
  if (!isOneOf(categories, category))
    throw new Error(`audit check ${id} has an unknown category ${category}`);
  if (!isOneOf(severities, defaultSeverity))
    throw new Error(`audit check ${id} has an unknown severity ${defaultSeverity}`);
  return {
    id,
    title: entry.title,
    category,
    description: entry.description,
    remediation: entry.remediation,
    defaultSeverity,
    frameworks: entry.frameworks.map((key) => lookup(frameworks, key, id)),
    references: entry.references.map((key) => lookup(docs, key, id)),
    aliases: [...entry.aliases],
    appliesTo: [...appliesTo],
  };
}
