import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { get, post } from '../../api/client.ts';
import { linkLook } from '../../ui/controls.tsx';
import { controlLook, rowButtonLook } from '../../ui/forms.tsx';
import { ago, Card, Empty, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { toastError } from '../../ui/toasts.tsx';

const cell = 'py-2 pr-4 align-baseline';

/** The chart sources the agent was started with: what each holds, when it was read, its error; Update reads it again. */
function Repositories() {
  const queryClient = useQueryClient();
  const repositories = useQuery({
    queryKey: ['helm', 'repositories'],
    queryFn: ({ signal }) => get('/api/pkgmgr/repositories', { signal }),
  });
  const update = useMutation({
    mutationFn: (name: string) => post('/api/pkgmgr/repositories/{name}/update', { params: { name } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['helm'] }),
    onError: (error, name) => toastError(`Updating chart source ${name} failed`, error),
  });
  return (
    <Card title="Chart sources">
      <Loaded query={repositories} what="the chart sources">
        {({ repositories: list }) =>
          list.length === 0 ? (
            <Empty>
              No chart sources. Start the agent with <code>--helm-repositories NAME=URL,…</code> to install
              charts.
            </Empty>
          ) : (
            <Table columns={['Name', 'Type', 'URL', 'Charts', 'Read', 'Actions']}>
              {list.map((r) => (
                <tr key={r.name}>
                  <td className={`${cell} font-medium`}>{r.name}</td>
                  <td className={cell}>{r.type === 'oci' ? 'OCI registry' : 'Repository'}</td>
                  <td className={`${cell} break-all font-mono text-xs`}>
                    {r.url}
                    {r.error && (
                      <p role="alert" className="mt-1 font-sans text-red-800 dark:text-red-300">
                        {r.error}
                      </p>
                    )}
                  </td>
                  <td className={`${cell} tabular-nums`}>{r.charts ?? '—'}</td>
                  <td className={`${cell} whitespace-nowrap`} title={r.updated}>
                    {r.updated ? ago(r.updated) : 'not yet'}
                  </td>
                  <td className="py-2 align-baseline">
                    <button
                      type="button"
                      className={rowButtonLook}
                      aria-label={`Update ${r.name}`}
                      disabled={update.isPending && update.variables === r.name}
                      onClick={() => update.mutate(r.name)}
                    >
                      {update.isPending && update.variables === r.name ? 'Updating…' : 'Update'}
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </Card>
  );
}

/** A search field for the card's header: Enter searches, an empty field lists every chart. */
function ChartSearch({ query, setQuery }: { query?: string; setQuery: (q?: string) => void }) {
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const text = String(new FormData(e.currentTarget).get('q') ?? '').trim();
        setQuery(text || undefined);
      }}
    >
      <input
        name="q"
        type="search"
        aria-label="Search charts"
        placeholder="Search charts…"
        defaultValue={query ?? ''}
        className={`${controlLook} w-56 py-1`}
      />
    </form>
  );
}

/** The charts of every source (newest version each), searchable by name, description and keywords. */
function Charts({ query, setQuery }: { query?: string; setQuery: (q?: string) => void }) {
  const charts = useQuery({
    queryKey: ['helm', 'charts', query],
    queryFn: ({ signal }) => get('/api/pkgmgr/charts', { query: { query }, signal }),
  });
  return (
    <Card title="Charts" aside={<ChartSearch query={query} setQuery={setQuery} />}>
      <Loaded query={charts} what="the charts">
        {(answer) => (
          <div className="flex flex-col gap-3">
            {answer.errors.map((e) => (
              <p key={e.repository} role="alert" className="text-sm text-red-800 dark:text-red-300">
                {e.repository}: {e.error}
              </p>
            ))}
            {answer.charts.length === 0 ? (
              <Empty>{query ? `No chart matches “${query}”.` : 'The chart sources hold no charts.'}</Empty>
            ) : (
              <Table
                columns={['Chart', 'Source', 'Latest version', 'App version', 'Versions', 'Description']}
              >
                {answer.charts.map((c) => (
                  <tr key={`${c.repository}/${c.name}`}>
                    <td className={cell}>
                      <Link
                        to="/helm/charts/$repo/$chart"
                        params={{ repo: c.repository, chart: c.name }}
                        search={(prev) => ({ namespace: prev.namespace })}
                        className={`font-medium ${linkLook}`}
                        aria-label={`${c.repository}/${c.name}`}
                      >
                        {c.name}
                      </Link>
                      {c.deprecated && (
                        <span className="ml-2 text-xs text-amber-800 dark:text-amber-300">deprecated</span>
                      )}
                    </td>
                    <td className={cell}>{c.repository}</td>
                    <td className={cell}>{c.version}</td>
                    <td className={cell}>{c.appVersion ?? '—'}</td>
                    <td className={`${cell} tabular-nums`}>{c.versions}</td>
                    <td className="py-2 align-baseline text-slate-700 dark:text-slate-300">
                      {c.description ?? ''}
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          </div>
        )}
      </Loaded>
    </Card>
  );
}

export function SourcesTab(props: { query?: string; setQuery: (q?: string) => void }) {
  return (
    <div className="flex flex-col gap-4">
      <Repositories />
      <Charts {...props} />
    </div>
  );
}
