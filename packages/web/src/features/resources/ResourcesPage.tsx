import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { get } from '../../api/client.ts';
import { Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { type Column, VirtualTable } from '../../ui/VirtualTable.tsx';
import { BulkActions } from './BulkActions.tsx';
import { ageColumn, columnsByKind } from './columns.tsx';
import { KindList } from './KindList.tsx';
import { type KubeObject, nameOf, namespaceOf } from './objects.ts';

const rowKey = (o: KubeObject) => o.metadata?.uid ?? `${namespaceOf(o)}/${nameOf(o)}`;

export interface ResourcesSearch {
  q?: string;
  labelSelector?: string;
}

/** One kind's objects in a table that stays fast at ten thousand rows; name filter and label selector in the URL. */
export function ResourcesPage() {
  const { kind } = useParams({ strict: false }) as { kind: string };
  const search = useSearch({ strict: false }) as ResourcesSearch & { namespace?: string };
  const navigate = useNavigate();
  const objects = useQuery({
    queryKey: ['resources', kind, search.namespace, search.labelSelector],
    queryFn: ({ signal }) =>
      get('/api/resources/{kind}', {
        params: { kind },
        // The summary projection carries every field a table column reads, at a fraction of the bytes.
        query: {
          namespace: search.namespace,
          labelSelector: search.labelSelector,
          limit: 10_000,
          summary: 'true',
        },
        signal,
      }),
    refetchInterval: 10_000,
  });
  const items = (objects.data?.items ?? []) as KubeObject[];
  const rows = search.q ? items.filter((o) => nameOf(o).includes(search.q ?? '')) : items;
  const namespaced = objects.data?.namespaced ?? true;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // A selection belongs to the table it was made in: another kind or namespace starts with none.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are what resets it.
  useEffect(() => setSelected(new Set()), [kind, search.namespace]);
  const selectedRows = rows.filter((o) => selected.has(rowKey(o)));
  const columns: Column<KubeObject>[] = [
    {
      header: 'Name',
      cell: (o) => (
        <Link
          to="/resources/$kind/$namespace/$name"
          params={{ kind, namespace: namespaceOf(o) ?? '_', name: nameOf(o) }}
          search={{ namespace: search.namespace }}
          className="font-medium text-teal-800 hover:underline dark:text-teal-300"
        >
          {nameOf(o)}
        </Link>
      ),
    },
    ...(namespaced
      ? [{ header: 'Namespace', width: 'w-36', cell: (o: KubeObject) => namespaceOf(o) ?? '' }]
      : []),
    ...(columnsByKind[objects.data?.kind ?? ''] ?? []),
    ageColumn,
  ];
  const setSearch = (patch: Partial<ResourcesSearch>) =>
    void navigate({ to: '.', search: (prev) => ({ ...prev, ...patch }), replace: true });
  return (
    <div className="mx-auto flex max-w-[96rem] gap-5">
      <KindList namespace={search.namespace} current={kind} />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <h1 className="mr-auto text-xl font-semibold">
            {objects.data?.kind ?? kind}
            {objects.data && (
              <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-400">
                {rows.length === items.length ? items.length : `${rows.length} of ${items.length}`}
              </span>
            )}
          </h1>
          <TextFilter label="Filter by name" value={search.q} onChange={(q) => setSearch({ q })} />
          <TextFilter
            label="Label selector"
            value={search.labelSelector}
            placeholder="app=web,tier!=db"
            onChange={(labelSelector) => setSearch({ labelSelector })}
          />
        </div>
        {objects.data && (
          <BulkActions kind={objects.data.kind} objects={selectedRows} clear={() => setSelected(new Set())} />
        )}
        {objects.isPending ? (
          <Loading what={kind} />
        ) : objects.isError ? (
          <ErrorMessage error={objects.error} what={kind} />
        ) : rows.length === 0 ? (
          <Empty>
            No {objects.data.kind} objects{search.namespace ? ` in ${search.namespace}` : ''} match.
          </Empty>
        ) : (
          <VirtualTable
            label={`${objects.data.kind} objects`}
            columns={columns}
            rows={rows}
            rowKey={rowKey}
            selection={{
              selected,
              change: setSelected,
              rowLabel: (o) => `${namespaceOf(o) ? `${namespaceOf(o)}/` : ''}${nameOf(o)}`,
            }}
          />
        )}
      </div>
    </div>
  );
}
