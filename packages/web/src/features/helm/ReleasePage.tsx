import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { get } from '../../api/client.ts';
import { buttonLook, linkLook } from '../../ui/controls.tsx';
import { ago, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { StatusBadge, UpgradeBadge } from './Badges.tsx';
import { HistoryTab } from './HistoryTab.tsx';
import { HooksTab } from './HooksTab.tsx';
import { DiffTab, ManifestTab, ScrollingText } from './ManifestTab.tsx';
import { ProgressPanel } from './ProgressPanel.tsx';
import { type Asking, ReleaseDialogs } from './ReleaseDialogs.tsx';
import { ResourcesTab } from './ResourcesTab.tsx';
import { type ReleaseSearch, type ReleaseTab, releaseTabs } from './search.ts';
import type { ReleaseDetail, UpgradeInfo } from './types.ts';
import { useHelmStream } from './use-helm-stream.ts';
import { ValuesTab } from './ValuesTab.tsx';

const tabLabels: Record<ReleaseTab, string> = {
  resources: 'Resources',
  history: 'History',
  hooks: 'Hooks',
  values: 'Values',
  manifest: 'Manifest',
  diff: 'Diff',
  notes: 'Notes',
};

function Summary({ detail, info }: { detail: ReleaseDetail; info?: UpgradeInfo }) {
  const fact = (term: string, value: React.ReactNode, wide = false) => (
    <div className={`flex flex-col gap-0.5 ${wide ? 'col-span-full' : ''}`}>
      <dt className="text-xs text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="text-sm">{value}</dd>
    </div>
  );
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-6">
      {fact('Status', <StatusBadge status={detail.status} />)}
      {fact('Chart', detail.chart)}
      {fact(
        'Chart version',
        <span className="inline-flex items-center gap-2">
          {detail.chartVersion} <UpgradeBadge info={info} />
        </span>,
      )}
      {fact('App version', detail.appVersion ?? '—')}
      {fact('Revision', <span className="tabular-nums">{detail.revision}</span>)}
      {fact('Updated', <span title={detail.updated}>{ago(detail.updated)}</span>)}
      {detail.description &&
        fact(
          'Last change',
          <>
            {detail.description}
            {(detail.status === 'failed' || /^Rollback to \d+$/.test(detail.description)) && (
              <>
                {' '}
                <Link to="." search={(prev) => ({ ...prev, tab: 'hooks' as const })} className={linkLook}>
                  What the hooks did →
                </Link>
              </>
            )}
          </>,
          true,
        )}
    </dl>
  );
}

/** One Helm release: its summary and actions, helm's progress while a change runs, and its tabs. */
export function ReleasePage() {
  const release = useParams({ from: '/helm/$namespace/$name' });
  const search = useSearch({ from: '/helm/$namespace/$name' });
  const [asking, setAsking] = useState<Asking>();
  const stream = useHelmStream();
  const detail = useQuery({
    queryKey: ['helm', 'release', release.namespace, release.name],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/releases/{namespace}/{name}', { params: { ...release }, signal }),
    refetchInterval: 10_000,
  });
  const info = useQuery({
    queryKey: ['helm', 'upgrade-info', release.namespace, release.name],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/releases/{namespace}/{name}/upgrade-info', { params: { ...release }, signal }),
    staleTime: 60_000,
  });
  const setSearch = useSearchPatch<ReleaseSearch>();
  const back = (
    <Link to="/helm" search={{ namespace: search.namespace }} className={`text-sm ${linkLook}`}>
      ← all Helm releases
    </Link>
  );
  if (detail.isPending) return <Loading what={`release ${release.namespace}/${release.name}`} />;
  if (detail.isError)
    return (
      <div className="mx-auto flex max-w-7xl flex-col gap-3">
        {back}
        <ErrorMessage error={detail.error} what={`release ${release.namespace}/${release.name}`} />
      </div>
    );
  const history = detail.data.history;
  const tab = search.tab ?? 'resources';
  const busy = stream.run?.state === 'running';
  const action = (label: string, ask: Asking) => (
    <button type="button" className={buttonLook} disabled={busy} onClick={() => setAsking(ask)}>
      {label}
    </button>
  );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      {back}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-xl font-semibold">
          <span className="text-slate-600 dark:text-slate-400">Helm release</span> {release.namespace}/
          {release.name}
        </h1>
        {action('Upgrade…', { action: 'upgrade' })}
        {action('Roll back…', { action: 'rollback' })}
        {action('Uninstall…', { action: 'uninstall' })}
      </div>
      <section
        aria-label="Summary"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <Summary detail={detail.data} info={info.data} />
      </section>
      <ProgressPanel
        stream={stream}
        done={() => (
          <button
            type="button"
            className={`underline ${linkLook}`}
            onClick={() => setSearch({ tab: 'history' })}
          >
            See the history
          </button>
        )}
      />
      <section
        aria-label="Release details"
        className="rounded-lg border border-slate-200 bg-white px-4 pt-2 pb-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <Tabs
          label="Release details"
          tabs={releaseTabs.map((id) => ({ id, label: tabLabels[id] }))}
          current={tab}
          choose={(t) => setSearch({ tab: t })}
        >
          {tab === 'resources' && <ResourcesTab detail={detail.data} />}
          {tab === 'history' && (
            <HistoryTab
              history={history}
              current={detail.data.revision}
              rollBackTo={(revision) => setAsking({ action: 'rollback', revision })}
            />
          )}
          {tab === 'hooks' && (
            <HooksTab
              release={release}
              history={history}
              revision={search.revision}
              pick={(revision) => setSearch({ revision })}
            />
          )}
          {tab === 'values' && <ValuesTab release={release} />}
          {tab === 'manifest' && (
            <ManifestTab
              release={release}
              history={history}
              revision={search.revision}
              pick={(revision) => setSearch({ revision })}
            />
          )}
          {tab === 'diff' && (
            <DiffTab
              release={release}
              history={history}
              from={search.from}
              to={search.to}
              pick={(pair) => setSearch(pair)}
            />
          )}
          {tab === 'notes' &&
            (detail.data.notes.trim() ? (
              <ScrollingText label="Release notes" text={detail.data.notes} />
            ) : (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                The chart wrote no notes for this release.
              </p>
            ))}
        </Tabs>
      </section>
      <ReleaseDialogs
        asking={asking}
        detail={detail.data}
        release={release}
        info={info.data}
        start={stream.start}
        close={() => setAsking(undefined)}
      />
    </div>
  );
}
