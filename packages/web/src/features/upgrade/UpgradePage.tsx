import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { CountTiles } from '../../ui/CountTiles.tsx';
import { mutedLook, panelLook } from '../../ui/controls.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SelectFilter } from '../../ui/SelectFilter.tsx';
import { Empty, ErrorMessage, Loading, StillLoading } from '../../ui/states.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { ApiServerRequests } from './ApiServerRequests.tsx';
import { FindingRows } from './FindingRows.tsx';
import {
  type ReadinessReport,
  readinessStatuses,
  sources,
  targetChoices,
  type UpgradeSearch,
} from './types.ts';

const tiles = (report: ReadinessReport) => [
  {
    id: 'total',
    label: 'Findings',
    value: report.total,
    accent: 'border-l-slate-400',
    hint: 'every status',
  },
  {
    id: 'already-removed',
    label: 'Already removed',
    value: report.summary.alreadyRemoved,
    accent: 'border-l-red-700',
    hint: `not served by ${report.current}: fails on the next apply`,
  },
  {
    id: 'removed-in-target',
    label: `Removed in ${report.target}`,
    value: report.summary.removedInTarget,
    accent: 'border-l-red-500',
    hint: 'fix before upgrading',
  },
  {
    id: 'deprecated',
    label: 'Deprecated',
    value: report.summary.deprecated,
    accent: 'border-l-amber-500',
    hint: 'removed later, or no date yet',
  },
];

/**
 * What upgrading the cluster to a Kubernetes release breaks (docs/upgrade-readiness.md): the uses of API versions
 * it removes or deprecates, grouped by where they were found, each with the version to move to.
 */
export function UpgradePage() {
  const { target, status } = useSearch({ from: '/upgrade' });
  const setSearch = useSearchPatch<UpgradeSearch>();
  const report = useQuery({
    queryKey: ['upgrade-readiness', target],
    queryFn: ({ signal }) => get('/api/upgrade-readiness', { query: { target }, signal }),
  });
  const data = report.data;
  const shown = (data?.findings ?? []).filter((f) => !status || f.status === status);
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <PageHeading
        title="Upgrade readiness"
        about={
          data
            ? `What upgrading from Kubernetes ${data.current} to ${data.target} breaks: API versions it removes or deprecates, and what to move to`
            : 'API versions a Kubernetes release removes or deprecates, and what to move to'
        }
      >
        {data && (
          <SelectFilter
            label="Target release"
            value={data.target}
            all="The next minor"
            options={targetChoices(data.current, data.target).map((t) => [t, `Kubernetes ${t}`] as const)}
            onChange={(value) => setSearch({ target: value })}
          />
        )}
      </PageHeading>
      {report.isPending ? (
        <Loading what="the upgrade readiness report" />
      ) : report.isError || !data ? (
        <ErrorMessage error={report.error} what="the upgrade readiness report" />
      ) : (
        <>
          <StillLoading kinds={data.loading} />
          <CountTiles
            label="Summary"
            tiles={tiles(data)}
            chosen={status ?? 'total'}
            choose={(id) => setSearch({ status: readinessStatuses.find((s) => s === id) })}
          />
          {data.total > data.findings.length && (
            <p className={`text-sm ${mutedLook}`}>
              The first {data.findings.length} of {data.total} findings, most urgent first.
            </p>
          )}
          {shown.length === 0 && (
            <div className={panelLook}>
              <Empty>
                {data.total === 0
                  ? `Nothing found that uses an API version Kubernetes ${data.target} removes or deprecates.`
                  : 'No findings of this status.'}
              </Empty>
            </div>
          )}
          {sources.map(({ source, title, about }) => {
            const findings = shown.filter((f) => f.source === source);
            if (findings.length === 0) return null;
            return (
              <section key={source} aria-label={title} className={panelLook}>
                <h2 className="text-sm font-semibold">
                  {title} <span className={`font-normal ${mutedLook}`}>{findings.length}</span>
                </h2>
                <p className={`mb-2 text-xs ${mutedLook}`}>{about}</p>
                <FindingRows findings={findings} source={source} target={data.target} />
              </section>
            );
          })}
          <ApiServerRequests metrics={data.apiServerMetrics} />
        </>
      )}
    </div>
  );
}
