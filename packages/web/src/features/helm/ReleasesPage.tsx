import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { buttonLook, linkLook } from '../../ui/controls.tsx';
import { ago, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { AccessNotice, useRefusal } from '../shell/AccessNotice.tsx';
import { helmReleases } from '../shell/access.ts';
import { StatusBadge, UpgradeBadge } from './Badges.tsx';
import type { ReleaseSummary } from './types.ts';

export interface ReleasesSearch {
  q?: string;
}

const cell = 'py-2 pr-4';
const matches = (r: ReleaseSummary, q: string) =>
  [r.name, r.namespace, r.chart].some((text) => text.toLowerCase().includes(q.toLowerCase()));

/** The Helm releases of the namespace in view, newest revision of each, with the chart versions to upgrade to. */
export function ReleasesPage() {
  const search = useSearch({ from: '/helm' });
  const namespace = search.namespace;
  const setSearch = useSearchPatch<ReleasesSearch>();
  const releases = useQuery({
    queryKey: ['helm', 'releases', namespace],
    queryFn: ({ signal }) => get('/api/pkgmgr/releases', { query: { namespace }, signal }),
    refetchInterval: 10_000,
  });
  const upgrades = useQuery({
    queryKey: ['helm', 'upgrade-check', namespace],
    queryFn: ({ signal }) => get('/api/pkgmgr/upgrade-check', { query: { namespace }, signal }),
    staleTime: 60_000,
  });
  const all = releases.data?.releases ?? [];
  const releasesRefused = useRefusal(helmReleases, namespace);
  const rows = search.q ? all.filter((r) => matches(r, search.q ?? '')) : all;
  const unreadable = releases.data?.unreadable ?? [];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <h1 className="mr-auto text-xl font-semibold">
          Helm releases
          {releases.data && (
            <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-400">
              {rows.length === all.length ? all.length : `${rows.length} of ${all.length}`}
              {namespace ? ` in ${namespace}` : ''}
            </span>
          )}
        </h1>
        <TextFilter label="Filter by name or chart" value={search.q} onChange={(q) => setSearch({ q })} />
        <Link to="/helm/charts" search={{ namespace }} className={buttonLook}>
          Charts and install…
        </Link>
      </div>
      {upgrades.isError && <ErrorMessage error={upgrades.error} what="which releases have newer charts" />}
      {unreadable.length > 0 && (
        <div
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">Release records the agent could not read</p>
          <ul className="mt-1 list-disc pl-5">
            {unreadable.map((u) => (
              <li key={`${u.namespace}/${u.name}`}>
                <span className="font-mono text-xs">{`${u.namespace}/${u.name}`}</span>: {u.error}
              </li>
            ))}
          </ul>
        </div>
      )}
      <section
        aria-label="Releases"
        className="rounded-lg border border-slate-200 bg-white px-4 pt-3 pb-1 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        {releases.isPending ? (
          <Loading what="Helm releases" />
        ) : releases.isError ? (
          <ErrorMessage error={releases.error} what="Helm releases" />
        ) : all.length === 0 && releasesRefused ? (
          <div className="pb-3">
            <AccessNotice refusal={releasesRefused} short />
          </div>
        ) : rows.length === 0 ? (
          <Empty>
            {all.length === 0
              ? `No Helm releases${namespace ? ` in ${namespace}` : ''}. `
              : `No release matches “${search.q}”. `}
            <Link to="/helm/charts" search={{ namespace }} className={linkLook}>
              Install a chart
            </Link>
          </Empty>
        ) : (
          <Table
            columns={[
              'Name',
              'Namespace',
              'Chart',
              'Chart version',
              'App version',
              'Status',
              'Revision',
              'Updated',
            ]}
          >
            {rows.map((r) => (
              <tr key={`${r.namespace}/${r.name}`}>
                <td className={cell}>
                  <Link
                    to="/helm/$namespace/$name"
                    params={{ namespace: r.namespace, name: r.name }}
                    search={{ namespace }}
                    className={`font-medium ${linkLook}`}
                  >
                    {r.name}
                  </Link>
                </td>
                <td className={cell}>{r.namespace}</td>
                <td className={cell}>{r.chart}</td>
                <td className={cell}>
                  <span className="inline-flex items-center gap-2">
                    {r.chartVersion}
                    <UpgradeBadge info={upgrades.data?.releases[`${r.namespace}/${r.name}`]} />
                  </span>
                </td>
                <td className={cell}>{r.appVersion ?? '—'}</td>
                <td className={cell}>
                  <StatusBadge status={r.status} />
                </td>
                <td className={`${cell} tabular-nums`}>{r.revision}</td>
                <td className="py-2" title={r.updated}>
                  {ago(r.updated)}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </div>
  );
}
