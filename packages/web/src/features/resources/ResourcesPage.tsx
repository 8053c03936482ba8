import type { KubeObject } from '@binnacle/common';
import { cellText, type TableColumn } from '@binnacle/common/tables';
import { useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge, statusBadgeTone } from '../../ui/Badge.tsx';
import { PlainLink } from '../../ui/PlainLink.tsx';
import { SelectFilter } from '../../ui/SelectFilter.tsx';
import { Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { type Column, VirtualTable } from '../../ui/VirtualTable.tsx';
import { AccessNotice } from '../shell/AccessNotice.tsx';
import { TimeTravelBar } from '../timetravel/TimeTravelBar.tsx';
import { BulkActions } from './BulkActions.tsx';
import { useColumnWidths } from './column-widths.ts';
import { KindList } from './KindList.tsx';
import { objectHref } from './objects.ts';
import { useTableAccess } from './table-access.ts';
import { type TableRow, viewOf } from './table-patch.ts';
import { useTableWindow, useWindowOffset } from './table-window.ts';

export interface ResourcesSearch {
  q?: string;
  labelSelector?: string;
  status?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  wide?: boolean;
  /** A past moment (RFC 3339): the table as the cluster was then (time travel). */
  at?: string;
}

/**
 * kubectl's short columns start narrow, so a pod's whole row fits beside a readable NAME at 1024 px; a custom
 * resource's HEALTH is one word, its HEALTH REASON a condition and a reason (ADR 0126).
 */
const narrowColumns: Readonly<Record<string, number>> = {
  READY: 72,
  STATUS: 130,
  RESTARTS: 88,
  AGE: 56,
  DATA: 64,
  HEALTH: 104,
  'HEALTH REASON': 170,
};

/** Starting widths by what a column holds; NAME takes what is left, never under its minimum. */
const widthOf = (column: TableColumn) =>
  narrowColumns[column.name] ?? (column.type === 'string' ? 140 : column.type === 'date' ? 80 : 96);
const minimumOf = (column: TableColumn) => (column.name === 'STATUS' ? 110 : 64);

const byNamespaceAndName = (a: TableRow, b: TableRow) =>
  (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
  a.name.localeCompare(b.name, 'en', { numeric: true });
const rowLabel = (row: TableRow) => `${row.namespace ? `${row.namespace}/` : ''}${row.name}`;
const asObject = (row: TableRow): KubeObject => ({
  metadata: { uid: row.uid, name: row.name, ...(row.namespace ? { namespace: row.namespace } : {}) },
});

/**
 * One choice per status with its count, and the URL's choice when it is not one of them: a link may keep
 * several statuses (`status=CrashLoopBackOff,Error`, as the dashboard's do) or one no row has now.
 */
function statusOptions(statuses: readonly { text: string; count: number }[], chosen?: string) {
  const options = statuses.map((s) => [s.text, `${s.text} (${s.count})`] as const);
  if (!chosen || statuses.some((s) => s.text === chosen)) return options;
  return [[chosen, chosen.split(',').join(' or ')] as const, ...options];
}

/** A clock for ages: cells keep moments, so an open table's ages move without a refetch. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * One kind's table as kubectl prints it, sorted and filtered by the agent, which sends only the rows in view
 * and then what changes in them (ADR 0054). Filter, status, sort and wide columns live in the URL.
 */
export function ResourcesPage() {
  const { kind } = useParams({ from: '/resources/$kind' });
  const search = useSearch({ from: '/resources/$kind' });
  const navigate = useNavigate();
  const clock = useNow(5000);
  // Ages in a past table are counted from the moment shown.
  const now = search.at ? Date.parse(search.at) : clock;
  const query = {
    namespace: search.namespace,
    labelSelector: search.labelSelector,
    filter: search.q,
    status: search.status,
    sort: search.sort,
    order: search.order,
    at: search.at,
  };
  const view = viewOf(kind, query);
  const [asked, onRange] = useWindowOffset(view);
  const live = useTableWindow(kind, { ...query, ...asked });
  const { stale, error } = live;
  const access = useTableAccess(kind, search.namespace);
  // Rows of another kind or filter never show under this heading; those of another offset do while scrolling.
  const shown = live.view === view ? live.window : undefined;

  const [selected, setSelected] = useState<ReadonlyMap<string, TableRow>>(new Map());
  // A selection belongs to the table it was made in: another kind or namespace starts with none.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are what resets it.
  useEffect(() => setSelected(new Map()), [kind, search.namespace]);
  const [widths, setWidth] = useColumnWidths(kind);

  const filterInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focusFilter = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      filterInput.current?.focus();
    };
    document.addEventListener('keydown', focusFilter);
    return () => document.removeEventListener('keydown', focusFilter);
  }, []);

  // As kubectl: a NAMESPACE column only when the rows may come from several namespaces.
  const acrossNamespaces = Boolean(shown?.namespaced) && !search.namespace;
  const setSearch = useSearchPatch<Partial<ResourcesSearch>>();
  const router = useRouter();
  const sortedColumn = (search.sort ?? (acrossNamespaces ? 'namespace' : 'name')).toLowerCase();
  const order = search.order ?? 'asc';
  const sortBy = (column: string) => {
    const same = sortedColumn === column.toLowerCase();
    setSearch({ sort: column, order: same && search.order !== 'desc' ? 'desc' : undefined });
  };
  const { namespace, wide } = search;
  const serverColumnList = shown?.columns;
  const at = search.at;
  // The same columns from render to render unless what they show changed, so the rows in view keep theirs.
  const columns = useMemo((): Column<TableRow>[] => {
    const sortedAs = (column: string) => (sortedColumn === column.toLowerCase() ? order : undefined);
    // The namespace filter and the moment shown go with the link, serialised as the router would.
    const linkSearch = namespace || at ? router.options.stringifySearch({ namespace, at }) : '';
    const serverColumns = (serverColumnList ?? [])
      .map((column, index) => ({ column, index }))
      .filter(({ column }) => wide || column.priority === 0);
    // A custom resource's row status is its health (ADR 0126): the HEALTH cell wears it, not the CRD's STATUS.
    const badged = serverColumnList?.some((c) => c.name === 'HEALTH') ? 'HEALTH' : 'STATUS';
    return [
      {
        id: 'name',
        header: 'NAME',
        minWidth: 200,
        width: widths.name,
        sortable: true,
        sorted: sortedAs('name'),
        cell: (row) => (
          // A plain link, not the router's: rows mount by the dozen on every frame of a scroll.
          <PlainLink
            href={objectHref({ kind, namespace: row.namespace, name: row.name }, linkSearch)}
            go={() =>
              navigate({
                to: '/resources/$kind/$namespace/$name',
                params: { kind, namespace: row.namespace ?? '_', name: row.name },
                search: { namespace, at },
              })
            }
            title={row.name}
            // The whole name shows on keyboard focus only: a mouse press must not move the link before its click.
            className="block truncate font-medium text-teal-800 hover:underline focus-visible:absolute focus-visible:inset-y-0 focus-visible:left-0 focus-visible:z-20 focus-visible:flex focus-visible:w-max focus-visible:items-center focus-visible:overflow-visible focus-visible:bg-white focus-visible:px-3 dark:text-teal-300 dark:focus-visible:bg-slate-900"
          >
            {row.name}
          </PlainLink>
        ),
      },
      ...(acrossNamespaces
        ? [
            {
              id: 'namespace',
              header: 'NAMESPACE',
              minWidth: 80,
              width: widths.namespace ?? 130,
              sortable: true,
              sorted: sortedAs('namespace'),
              cell: (row: TableRow) => <span title={row.namespace}>{row.namespace}</span>,
            },
          ]
        : []),
      ...serverColumns.map(
        ({ column, index }): Column<TableRow> => ({
          id: column.name,
          header: column.name,
          minWidth: minimumOf(column),
          width: widths[column.name] ?? widthOf(column),
          right: column.type !== 'string' && column.type !== 'date',
          sortable: true,
          sorted: sortedAs(column.name),
          cell: (row) => {
            const text = cellText(row.cells[index] ?? null, now);
            if (column.name === badged && row.status)
              return (
                <Badge tone={statusBadgeTone[row.status.tone]} title={text}>
                  {text}
                </Badge>
              );
            return <span title={text}>{text}</span>;
          },
        }),
      ),
    ];
  }, [
    kind,
    namespace,
    at,
    acrossNamespaces,
    sortedColumn,
    order,
    wide,
    widths,
    now,
    serverColumnList,
    navigate,
    router,
  ]);

  const total = shown?.total;
  const heading = shown?.kind ?? kind;
  return (
    <div className="mx-auto flex max-w-[96rem] gap-5">
      <KindList namespace={search.namespace} current={kind} at={search.at} />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <h1 className="mr-auto text-xl font-semibold">
            {heading}
            {total !== undefined && (
              <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-400">
                {total.toLocaleString('en')}
              </span>
            )}
          </h1>
          <TextFilter
            label="Filter (press /)"
            value={search.q}
            inputRef={filterInput}
            shortcut="/"
            placeholder="text in any column"
            onChange={(q) => setSearch({ q })}
          />
          {shown && shown.statuses.length > 0 && (
            <SelectFilter
              label="Status"
              value={search.status}
              all="All statuses"
              options={statusOptions(shown.statuses, search.status)}
              onChange={(status) => setSearch({ status })}
            />
          )}
          <TextFilter
            label="Label selector"
            value={search.labelSelector}
            placeholder="app=web,tier!=db"
            onChange={(labelSelector) => setSearch({ labelSelector })}
          />
          {shown?.columns.some((c) => c.priority === 1) && (
            <label className="flex items-center gap-1.5 pb-1 text-sm">
              <input
                type="checkbox"
                className="h-4 w-4 accent-teal-700"
                checked={search.wide ?? false}
                onChange={(e) => setSearch({ wide: e.target.checked || undefined })}
              />
              Wide columns
            </label>
          )}
          <TimeTravelBar at={search.at} kind={kind} onChange={(at) => setSearch({ at })} />
        </div>
        {/* The agent's own 403 names who and what; a list it answers empty for want of rights, the capabilities. */}
        {live.refused ? (
          <ErrorMessage error={live.refused} what={kind} />
        ) : (
          access.refusal && <AccessNotice refusal={access.refusal} />
        )}
        {access.partial && (
          <p role="note" className="text-sm text-slate-600 dark:text-slate-400">
            Only the namespaces where you may list {access.plural} are shown.
          </p>
        )}
        {stale && !live.refused && (
          <p
            role="status"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            Live updates paused — reconnecting. The rows shown are the last received.
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-800 dark:text-red-300">
            {error}
          </p>
        )}
        {/* The past cannot be changed: no deletes or restarts from a table as it was. */}
        {shown && !search.at && (
          <BulkActions
            kind={shown.kind}
            objects={[...selected.values()].sort(byNamespaceAndName).map(asObject)}
            clear={() => setSelected(new Map())}
            unavailable={access.unavailable}
          />
        )}
        {access.refusal ? null : !shown ? (
          !live.refused && <Loading what={kind} />
        ) : shown.total === 0 ? (
          <Empty>
            No {shown.kind} objects{search.namespace ? ` in ${search.namespace}` : ''} match.
          </Empty>
        ) : (
          <VirtualTable
            label={`${shown.kind} objects`}
            columns={columns}
            count={shown.total}
            rowAt={(index) => shown.rows[index - shown.offset]}
            rowKey={(row) => row.uid}
            onRange={onRange}
            onSort={sortBy}
            onResize={setWidth}
            stale={stale}
            selection={
              search.at
                ? undefined
                : {
                    selected: new Set(selected.keys()),
                    change: (keys, rows) =>
                      setSelected((prev) => {
                        const next = new Map<string, TableRow>();
                        for (const key of keys) {
                          const row = prev.get(key) ?? rows.find((r) => r.uid === key);
                          if (row) next.set(key, row);
                        }
                        return next;
                      }),
                    rowLabel,
                  }
            }
          />
        )}
      </div>
    </div>
  );
}
