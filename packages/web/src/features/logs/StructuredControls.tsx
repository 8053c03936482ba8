import { logLevels } from '@binnacle/common';
import { useId } from 'react';
import type { Structured } from './use-structured.ts';

const control =
  'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

/** The colour of each level on its filter button. */
const levelLook = {
  error: 'text-red-700 dark:text-red-400',
  warn: 'text-amber-800 dark:text-amber-300',
  info: 'text-sky-800 dark:text-sky-300',
  debug: 'text-slate-600 dark:text-slate-400',
} as const;

/** Keys offered as columns: the most frequent, so a noisy log does not make a list nobody can read. */
const offeredKeys = 40;

/**
 * The structured log's filters: one button per level (none pressed: every line), a `key=value` field filter, and
 * which of the keys seen are columns.
 */
export function StructuredControls({ structured }: { structured: Structured }) {
  const errorId = useId();
  const { columns } = structured;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <fieldset className="flex items-center gap-1">
        <legend className="float-left mr-1 text-xs text-slate-600 dark:text-slate-400">Level</legend>
        {logLevels.map((level) => (
          <button
            key={level}
            type="button"
            aria-pressed={structured.levels.has(level)}
            onClick={() => structured.toggleLevel(level)}
            className={`${control} font-mono text-xs aria-pressed:bg-slate-800 aria-pressed:text-white dark:aria-pressed:bg-slate-200 dark:aria-pressed:text-slate-900 ${structured.levels.has(level) ? '' : levelLook[level]}`}
          >
            {level} <span className="font-semibold">{structured.counts[level]}</span>
          </button>
        ))}
      </fieldset>
      <input
        aria-label="Filter by field"
        placeholder="key=value, e.g. level=error"
        spellCheck={false}
        className={`${control} w-64 font-mono text-xs`}
        value={structured.filterText}
        aria-invalid={Boolean(structured.filterError)}
        aria-describedby={structured.filterError ? errorId : undefined}
        onChange={(e) => structured.setFilterText(e.target.value)}
      />
      {structured.filterError && (
        <span id={errorId} className="text-xs text-red-700 dark:text-red-400">
          {structured.filterError}
        </span>
      )}
      <details className="relative">
        <summary className={`${control} cursor-pointer list-none`}>Columns ({columns.length})</summary>
        <fieldset className="absolute z-20 mt-1 flex max-h-72 w-56 flex-col gap-0.5 overflow-auto rounded-md border border-slate-300 bg-white p-2 text-xs shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <legend className="sr-only">Fields shown as columns</legend>
          {structured.keys.length === 0 && <span>No fields besides level, message and time.</span>}
          {structured.keys.slice(0, offeredKeys).map(({ key, count }) => (
            <label key={key} className="flex items-center gap-2 font-mono">
              <input
                type="checkbox"
                checked={columns.includes(key)}
                onChange={(e) =>
                  structured.setColumns(
                    e.target.checked ? [...columns, key] : columns.filter((c) => c !== key),
                  )
                }
              />
              <span className="truncate">{key}</span>
              <span className="ml-auto text-slate-600 dark:text-slate-400">{count}</span>
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  );
}
