import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { linkLook } from '../../ui/controls.tsx';
import { Card, ErrorMessage, Loaded, Loading } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { InstallForm } from './InstallForm.tsx';
import { ScrollingText } from './ManifestTab.tsx';
import { ProgressPanel } from './ProgressPanel.tsx';
import { Readme } from './Readme.tsx';
import type { ChartSearch } from './search.ts';
import { useHelmStream } from './use-helm-stream.ts';

type ChartVersion = NonNullable<ReturnType<typeof useChartVersion>['data']>;

const useChartVersion = (repo: string, chart: string, version?: string) =>
  useQuery({
    queryKey: ['helm', 'chart', repo, chart, version],
    enabled: version !== undefined,
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/charts/{repo}/{chart}/{version}', {
        params: { repo, chart, version: version ?? '' },
        signal,
      }),
  });

function About({ chart }: { chart: ChartVersion }) {
  const fact = (term: string, value: React.ReactNode) => (
    <>
      <dt className="text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </>
  );
  return (
    <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-2 text-sm">
      {fact('Version', chart.version)}
      {fact('App version', chart.appVersion ?? '—')}
      {chart.created && fact('Created', new Date(chart.created).toLocaleString())}
      {fact('Values schema', chart.schema ? 'yes: values are checked against values.schema.json' : 'none')}
      {fact(
        'Dependencies',
        chart.dependencies.length === 0
          ? 'none'
          : chart.dependencies.map((d) => `${d.name} ${d.version}`).join(', '),
      )}
      {chart.home &&
        fact(
          'Home',
          <a href={chart.home} target="_blank" rel="noreferrer" className={`underline ${linkLook}`}>
            {chart.home}
          </a>,
        )}
    </dl>
  );
}

/** One chart of a configured source: its versions, README, default values and schema, and the install form. */
export function ChartPage() {
  const { repo, chart } = useParams({ from: '/helm/charts/$repo/$chart' });
  const search = useSearch({ from: '/helm/charts/$repo/$chart' });
  const setSearch = useSearchPatch<ChartSearch>();
  const versions = useQuery({
    queryKey: ['helm', 'chart', repo, chart],
    queryFn: ({ signal }) => get('/api/pkgmgr/charts/{repo}/{chart}', { params: { repo, chart }, signal }),
  });
  const version = search.version ?? versions.data?.versions[0]?.version;
  const detail = useChartVersion(repo, chart, version);
  const view = search.view ?? 'readme';
  // Leaving the page cancels a running install (the stream closes, the agent stops helm).
  const stream = useHelmStream();
  const back = (
    <Link to="/helm/charts" search={{ namespace: search.namespace }} className={`text-sm ${linkLook}`}>
      ← all charts
    </Link>
  );
  if (versions.isPending) return <Loading what={`chart ${repo}/${chart}`} />;
  if (versions.isError)
    return (
      <div className="mx-auto flex max-w-7xl flex-col gap-3">
        {back}
        <ErrorMessage error={versions.error} what={`chart ${repo}/${chart}`} />
      </div>
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      {back}
      <div>
        <h1 className="text-xl font-semibold">
          <span className="text-slate-600 dark:text-slate-400">Chart</span> {repo}/{chart}
        </h1>
        {detail.data?.description && (
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{detail.data.description}</p>
        )}
      </div>
      <ProgressPanel
        stream={stream}
        done={(installed) =>
          installed && (
            <Link
              to="/helm/$namespace/$name"
              params={{ namespace: installed.namespace, name: installed.name }}
              search={{ namespace: search.namespace }}
              className={`font-medium underline ${linkLook}`}
            >
              Open release {installed.namespace}/{installed.name} →
            </Link>
          )
        }
      />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <section
          aria-label="Chart contents"
          className="rounded-lg border border-slate-200 bg-white px-4 pt-2 pb-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <Tabs
            label="Chart contents"
            tabs={[
              { id: 'readme', label: 'README' },
              { id: 'values', label: 'Default values' },
              { id: 'schema', label: 'Values schema' },
            ]}
            current={view}
            choose={(v) => setSearch({ view: v })}
          >
            <Loaded query={detail} what={`version ${version ?? ''}`}>
              {(d) =>
                view === 'readme' ? (
                  d.readme ? (
                    <Readme text={d.readme} />
                  ) : (
                    <p className="text-sm">The chart has no README.</p>
                  )
                ) : view === 'values' ? (
                  <ScrollingText
                    label={`Default values of ${chart} ${d.version}`}
                    text={d.values || '# no values.yaml'}
                  />
                ) : d.schema ? (
                  <ScrollingText
                    label={`Values schema of ${chart} ${d.version}`}
                    text={JSON.stringify(d.schema, null, 2)}
                  />
                ) : (
                  <p className="text-sm">
                    The chart has no values.schema.json: helm does not check values before it renders.
                  </p>
                )
              }
            </Loaded>
          </Tabs>
        </section>
        <div className="flex flex-col gap-4">
          {detail.data && (
            <Card title="About this version">
              <About chart={detail.data} />
            </Card>
          )}
          <Card title="Install">
            {version ? (
              <InstallForm
                repo={repo}
                chart={chart}
                versions={versions.data.versions.map((v) => v.version)}
                version={version}
                setVersion={(v) => setSearch({ version: v })}
                defaults={detail.data?.values ?? ''}
                namespace={search.namespace}
                start={stream.start}
                running={stream.run?.state === 'running'}
              />
            ) : (
              <p className="text-sm">The source lists no version of this chart.</p>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
