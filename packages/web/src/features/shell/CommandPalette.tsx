import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { type PaletteEntry, usePaletteEntries } from './use-palette-entries.ts';

const shown = 50;

/** Ranks an entry for a query: a name that starts with it first, then one that contains it. */
function rank(entry: PaletteEntry, query: string): number {
  const label = entry.label.toLowerCase();
  if (label === query) return 0;
  if (label.startsWith(query)) return 1;
  return label.includes(query) ? 2 : -1;
}

const entryKey = (entry: PaletteEntry) => `${entry.kind}/${entry.namespace}/${entry.label}`;

/** Ctrl/Cmd-K: jump to any kind, or to an object of the common kinds by name. */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // The highlight follows an entry, not a position: lists still loading must not move it under the user's Enter.
  const [activeKey, setActiveKey] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const { namespace } = useSearch({ strict: false });
  const navigate = useNavigate();
  const entries = usePaletteEntries(open, namespace);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((was) => !was);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (open) input.current?.focus();
    else setQuery('');
  }, [open]);

  const needle = query.trim().toLowerCase();
  const matches = needle
    ? entries
        .map((entry) => ({ entry, score: rank(entry, needle) }))
        .filter((m) => m.score >= 0)
        .sort((a, b) => a.score - b.score || a.entry.label.localeCompare(b.entry.label))
        .slice(0, shown)
        .map((m) => m.entry)
    : [];
  const active = Math.max(
    0,
    matches.findIndex((entry) => entryKey(entry) === activeKey),
  );
  const highlight = (index: number) => {
    const entry = matches[Math.min(Math.max(index, 0), matches.length - 1)];
    if (entry) setActiveKey(entryKey(entry));
  };
  const go = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    setOpen(false);
    const helm = entry.helm;
    if (entry.page) {
      void navigate({ to: entry.page, search: { namespace } });
    } else if (helm?.page === 'release') {
      void navigate({
        to: '/helm/$namespace/$name',
        params: { namespace: helm.namespace, name: helm.name },
        search: { namespace },
      });
    } else if (helm) {
      void navigate({ to: helm.page === 'charts' ? '/helm/charts' : '/helm', search: { namespace } });
    } else if (entry.name) {
      void navigate({
        to: '/resources/$kind/$namespace/$name',
        params: { kind: entry.kind, namespace: entry.namespace ?? '_', name: entry.name },
        search: { namespace },
      });
    } else {
      void navigate({ to: '/resources/$kind', params: { kind: entry.kind }, search: { namespace } });
    }
  };

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center pt-24">
      <button
        type="button"
        aria-label="Close"
        tabIndex={-1}
        className="absolute inset-0 cursor-default bg-slate-900/40"
        onClick={() => setOpen(false)}
      />
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Go to a kind or object"
        className="relative w-full max-w-xl overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl dark:border-slate-700 dark:bg-slate-900"
      >
        <input
          ref={input}
          role="combobox"
          aria-expanded={matches.length > 0}
          aria-controls={listId}
          aria-activedescendant={matches[active] ? `${listId}-${active}` : undefined}
          aria-label="Kind or object name"
          placeholder="Jump to a kind or an object by name…"
          className="w-full border-b border-slate-200 bg-transparent px-4 py-3 text-base outline-none dark:border-slate-700"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActiveKey(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
            else if (e.key === 'ArrowDown') highlight(active + 1);
            else if (e.key === 'ArrowUp') highlight(active - 1);
            else if (e.key === 'Enter') go(matches[active]);
            else return;
            e.preventDefault();
          }}
        />
        <div id={listId} role="listbox" aria-label="Matches" className="max-h-80 overflow-auto py-1">
          {matches.map((entry, index) => (
            <div
              key={entryKey(entry)}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              className={`flex cursor-pointer justify-between px-4 py-2 text-sm ${
                index === active ? 'bg-teal-50 dark:bg-teal-950' : ''
              }`}
              onMouseEnter={() => highlight(index)}
              onClick={() => go(entry)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') go(entry);
              }}
            >
              <span className="truncate font-medium">{entry.label}</span>
              <span className="ml-3 shrink-0 text-xs text-slate-600 dark:text-slate-400">{entry.detail}</span>
            </div>
          ))}
          {needle && matches.length === 0 && (
            <p className="px-4 py-2 text-sm text-slate-600 dark:text-slate-400">Nothing matches “{query}”.</p>
          )}
        </div>
      </div>
    </div>
  );
}
