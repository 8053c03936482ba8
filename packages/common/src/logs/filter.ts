import {
  type LogLevel,
  levelKeys,
  messageKeys,
  normalizeLevel,
  readLogfmt,
  type StructuredLine,
  timeKeys,
} from './structured.ts';

/** A line as the filters see it: its structure if it has one, and where it came from. */
export interface FilteredLine {
  structured?: StructuredLine;
  pod: string;
  container: string;
}

/**
 * `key=value` terms, written as logfmt (`level=error service=billing`, `msg="payment failed"`). Terms on different
 * keys must all match; terms repeating a key match any of their values (`level=error level=warn`).
 */
export type FieldFilter = Map<string, string[]>;

/** The longest filter read; more is refused rather than scanned. */
const maxFilterChars = 512;

/** The filter typed, or a sentence saying what is wrong with it. */
export function parseFieldFilter(text: string): { filter: FieldFilter } | { error: string } {
  const filter: FieldFilter = new Map();
  if (text.length > maxFilterChars) return { error: `At most ${maxFilterChars} characters.` };
  let bare = '';
  const read = readLogfmt(text, (key, value) => {
    if (value === undefined) {
      bare = key;
      return false;
    }
    filter.set(key, [...(filter.get(key) ?? []), value]);
    return true;
  });
  if (bare) return { error: `“${bare}” has no value: write key=value, e.g. level=error.` };
  if (!read) return { error: 'Write key=value terms, quoting values with spaces: msg="a b".' };
  return { filter };
}

const isLevelKey = (key: string) => (levelKeys as readonly string[]).includes(key);

/** Whether one term's values match the line: levels by meaning, `pod` and `container` by origin, others by text. */
function termMatches(line: FilteredLine, key: string, values: string[]): boolean {
  const fields = line.structured?.fields;
  const own = fields?.[key];
  if (isLevelKey(key) && line.structured?.level) {
    const level = line.structured.level;
    if (values.some((v) => normalizeLevel(v) === level)) return true;
  }
  const actual = own ?? (key === 'pod' ? line.pod : key === 'container' ? line.container : undefined);
  if (actual === undefined) return false;
  const lower = actual.toLowerCase();
  return values.some((v) => v.toLowerCase() === lower);
}

/** Whether a line passes the level choice (empty: every line) and every term of the field filter. */
export function lineMatches(line: FilteredLine, levels: ReadonlySet<LogLevel>, filter: FieldFilter): boolean {
  if (levels.size > 0 && !(line.structured?.level && levels.has(line.structured.level))) return false;
  for (const [key, values] of filter) if (!termMatches(line, key, values)) return false;
  return true;
}

const shownApart = new Set<string>([...levelKeys, ...messageKeys, ...timeKeys]);

/** Whether a key is read as the level, message or time, which have columns of their own. */
export const hasOwnColumn = (key: string): boolean => shownApart.has(key);

/**
 * The keys seen on structured lines, most frequent first, without those shown in their own columns (level,
 * message, time).
 */
export function fieldKeys(lines: Iterable<StructuredLine>): { key: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const line of lines)
    for (const key of Object.keys(line.fields))
      if (!hasOwnColumn(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The columns offered before the reader picks: the keys on at least a quarter of the lines, at most four. */
export function defaultColumns(keys: { key: string; count: number }[], structuredLines: number): string[] {
  return keys
    .filter((k) => k.count * 4 >= structuredLines)
    .slice(0, 4)
    .map((k) => k.key);
}
