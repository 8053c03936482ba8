import {
  defaultColumns,
  fieldKeys,
  type LogLevel,
  lineMatches,
  logLevels,
  parseFieldFilter,
  parseStructured,
  type StructuredLine,
} from '@binnacle/common';
import { useMemo, useState } from 'react';
import type { LogLine } from './use-log-stream.ts';

/** Each line is parsed once: the stream keeps its line objects, so they key the answers. */
const parsed = new WeakMap<LogLine, StructuredLine | null>();

export function structureOf(line: LogLine): StructuredLine | undefined {
  let known = parsed.get(line);
  if (known === undefined) {
    known = parseStructured(line.line) ?? null;
    parsed.set(line, known);
  }
  return known ?? undefined;
}

/** Lines read to decide whether a log is structured: the latest ones, as the format may change at a restart. */
const sampled = 100;

/**
 * What the structured view needs from the lines in the page: whether they are JSON or logfmt (at least half of
 * the latest), the keys seen and their default columns, and the reader's level choice, field filter and columns.
 */
export function useStructured(lines: LogLine[]) {
  const [levels, setLevels] = useState<ReadonlySet<LogLevel>>(new Set());
  const [filterText, setFilterText] = useState('');
  const [chosenColumns, setColumns] = useState<string[]>();
  const [view, setView] = useState<boolean>();
  const found = useMemo(() => {
    const structured: StructuredLine[] = [];
    const formats = new Set<string>();
    const counts = Object.fromEntries(logLevels.map((l) => [l, 0])) as Record<LogLevel, number>;
    for (const line of lines) {
      const structure = structureOf(line);
      if (!structure) continue;
      structured.push(structure);
      if (structure.level) counts[structure.level] += 1;
    }
    const recent = lines.slice(-sampled);
    let parsedRecent = 0;
    for (const line of recent) {
      const structure = structureOf(line);
      if (!structure) continue;
      parsedRecent += 1;
      formats.add(structure.format === 'json' ? 'JSON' : 'logfmt');
    }
    const keys = fieldKeys(structured);
    return {
      detected: parsedRecent > 0 && parsedRecent * 2 >= recent.length,
      formats: [...formats].sort(),
      keys,
      defaults: defaultColumns(keys, structured.length),
      counts,
    };
  }, [lines]);
  const parsedFilter = parseFieldFilter(filterText);
  const filter = 'filter' in parsedFilter ? parsedFilter.filter : new Map<string, string[]>();
  const filtering = levels.size > 0 || filter.size > 0;
  const matches = (line: LogLine) =>
    !filtering || lineMatches({ ...line, structured: structureOf(line) }, levels, filter);
  return {
    ...found,
    /** The structured view is on: as detected until the reader chooses. */
    on: view ?? found.detected,
    setView,
    levels,
    toggleLevel: (level: LogLevel) => {
      const next = new Set(levels);
      if (!next.delete(level)) next.add(level);
      setLevels(next);
    },
    filterText,
    setFilterText,
    filterError: 'error' in parsedFilter ? parsedFilter.error : undefined,
    columns: chosenColumns ?? found.defaults,
    setColumns,
    matches,
  };
}

export type Structured = ReturnType<typeof useStructured>;
