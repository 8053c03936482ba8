import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { type Answer, get } from '../../api/client.ts';
import { Checkbox, linkLook } from '../../ui/controls.tsx';
import { controlLook, rowButtonLook } from '../../ui/forms.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { Readme } from './Readme.tsx';

type Search = Answer<'/api/pkgmgr/catalog/search'>;
type CatalogChart = Extract<Search, { available: true }>['charts'][number];

const tag = 'rounded-full px-2 py-0.5 text-xs font-medium';

/** The catalog could not answer: said as a note, since the configured sources still work. */
function Unavailable({ reason }: { reason: string }) {
  return (
    <div
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-medium">The chart catalog is not available</p>
      <p className="mt-1">{reason}</p>
      <p className="mt-1">Charts of the configured sources can still be installed from the other tab.</p>
    </div>
  );
}

/** One catalog chart opened: versions, links, README, and how to install it (a configured source with its URL). */
function CatalogDetail({
  chart,
  sources,
}: {
  chart: CatalogChart;
  sources: { name: string; url: string }[];
}) {
  const detail = useQuery({
    queryKey: ['helm', 'catalog-chart', chart.repository.name, chart.name],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/catalog/charts/{repo}/{chart}', {
        params: { repo: chart.repository.name, chart: chart.name },
        signal,
      }),
  });
  const source = sources.find((s) => s.url.replace(/\/$/, '') === chart.repository.url.replace(/\/$/, ''));
  return (
    <div className="mt-3 flex flex-col gap-3 border-t border-slate-200 pt-3 dark:border-slate-800">
      {source ? (
        <p className="text-sm">
          Its repository is the configured source <strong>{source.name}</strong>:{' '}
          <Link
            to="/helm/charts/$repo/$chart"
            params={{ repo: source.name, chart: chart.name }}
            search={(prev) => ({ namespace: prev.namespace })}
            className={`underline ${linkLook}`}
          >
            install it from there
          </Link>
        </p>
      ) : (
        <p className="text-sm">
          To install it, add its repository to the agent's chart sources:{' '}
          <code className="break-all rounded bg-slate-100 px-1 font-mono text-xs dark:bg-slate-800">
            --helm-repositories {chart.repository.name}={chart.repository.url}
          </code>
        </p>
      )}
      <Loaded query={detail} what="the chart's details">
        {(d) =>
          d.available ? (
            <>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Versions:{' '}
                {d.chart.versions
                  .slice(0, 12)
                  .map((v) => v.version)
                  .join(', ')}
                {d.chart.versions.length > 12 ? ` and ${d.chart.versions.length - 12} more` : ''}
              </p>
              {d.chart.readme && (
                <div className="max-h-96 overflow-auto rounded-md border border-slate-200 p-3 dark:border-slate-800">
                  <Readme text={d.chart.readme} />
                </div>
              )}
            </>
          ) : (
            <Unavailable reason={d.reason} />
          )
        }
      </Loaded>
    </div>
  );
}

function CatalogRow({ chart, sources }: { chart: CatalogChart; sources: { name: string; url: string }[] }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1">
          <h3 className="text-sm font-semibold">
            {chart.displayName ?? chart.name}{' '}
            <span className="font-normal text-slate-600 dark:text-slate-400">
              {chart.repository.name}/{chart.name} {chart.version}
              {chart.appVersion ? ` · app ${chart.appVersion}` : ''}
            </span>
          </h3>
          <p className="text-sm text-slate-700 dark:text-slate-300">{chart.description}</p>
        </div>
        <div className="flex items-center gap-2">
          {chart.repository.official && (
            <span className={`${tag} bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200`}>
              official
            </span>
          )}
          {chart.repository.verifiedPublisher && (
            <span
              className={`${tag} bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200`}
            >
              verified
            </span>
          )}
          {chart.deprecated && (
            <span className={`${tag} bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200`}>
              deprecated
            </span>
          )}
          {chart.stars !== undefined && (
            <span className="text-xs text-slate-600 dark:text-slate-400">★ {chart.stars}</span>
          )}
          <button type="button" className={rowButtonLook} aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : 'Details'}
            <span className="sr-only">
              {' '}
              of {chart.repository.name}/{chart.name}
            </span>
          </button>
        </div>
      </div>
      {open && <CatalogDetail chart={chart} sources={sources} />}
    </li>
  );
}

/** Search the public chart catalog (Artifact Hub or a server speaking its API, through the agent). */
export function CatalogTab({ query, setQuery }: { query?: string; setQuery: (q?: string) => void }) {
  const [text, setText] = useState(query ?? '');
  const [verified, setVerified] = useState(false);
  const [official, setOfficial] = useState(false);
  const results = useQuery({
    queryKey: ['helm', 'catalog', query, verified, official],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/catalog/search', {
        query: {
          query: query || undefined,
          limit: 30,
          verified: verified ? 'true' : undefined,
          official: official ? 'true' : undefined,
        },
        signal,
      }),
  });
  const sources = useQuery({
    queryKey: ['helm', 'repositories'],
    queryFn: ({ signal }) => get('/api/pkgmgr/repositories', { signal }),
  });
  return (
    <div className="flex flex-col gap-4">
      <form
        aria-label="Catalog search"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(text.trim() || undefined);
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          Search the catalog
          <input
            className={`${controlLook} w-72`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="redis, ingress…"
          />
        </label>
        <button
          type="submit"
          className={`${controlLook} font-medium hover:bg-slate-100 dark:hover:bg-slate-700`}
        >
          Search
        </button>
        <Checkbox
          label={'Verified publishers'}
          checked={verified}
          onChange={setVerified}
          className="pb-1.5"
        />
        <Checkbox label={'Official'} checked={official} onChange={setOfficial} className="pb-1.5" />
      </form>
      <Loaded query={results} what="the catalog">
        {(r) =>
          !r.available ? (
            <Unavailable reason={r.reason} />
          ) : r.charts.length === 0 ? (
            <Empty>No chart in the catalog matches{query ? ` “${query}”` : ''}.</Empty>
          ) : (
            <section
              aria-label="Catalog charts"
              className="rounded-lg border border-slate-200 bg-white px-4 pt-3 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {r.charts.length} of {r.total} charts
              </p>
              <ul className="divide-y divide-slate-100 dark:divide-slate-800">
                {r.charts.map((c) => (
                  <CatalogRow key={c.packageId} chart={c} sources={sources.data?.repositories ?? []} />
                ))}
              </ul>
            </section>
          )
        }
      </Loaded>
    </div>
  );
}
