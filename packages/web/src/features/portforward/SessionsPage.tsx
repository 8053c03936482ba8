import { useQuery } from '@tanstack/react-query';
import { get, hubClusterId, remove } from '../../api/client.ts';
import { age, Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { portForwardElsewhere } from '../shell/access.ts';
import { useCapabilities } from '../shell/use-capabilities.ts';
import { ForwardLink, useForwardChange, usePortForwards } from './forwards.tsx';

const since = (iso: string) => age((Date.now() - Date.parse(iso)) / 1000);
const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`;
const cell = 'px-3 py-2';

/** What the agent holds open: port-forwards (open, stop) and every stream and session, refreshed every 2 s. */
export function SessionsPage() {
  // Through the hub, to people signed in to the agent, or in a cluster: no forward is ever listed here.
  const noForwards = portForwardElsewhere(useCapabilities().data, hubClusterId !== undefined);
  const forwards = usePortForwards(2_000, noForwards);
  const sessions = useQuery({
    queryKey: ['sessions'],
    queryFn: ({ signal }) => get('/api/sessions', { signal }),
    refetchInterval: 2_000,
  });
  const stop = useForwardChange((id: string) => remove('/api/portforwards/{id}', { params: { id } }));
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Port-forwards and sessions</h1>
      <Card title="Port-forwards">
        {noForwards ? (
          <p className="text-sm">{noForwards}</p>
        ) : forwards.isPending ? (
          <Loading what="the port-forwards" />
        ) : forwards.isError ? (
          <ErrorMessage error={forwards.error} what="the port-forwards" />
        ) : forwards.data.items.length === 0 ? (
          <Empty>No port-forwards. Start one from a pod's or a Service's page.</Empty>
        ) : (
          <table className="w-full text-left text-sm" aria-label="Port-forwards">
            <thead className="text-xs text-slate-600 dark:text-slate-400">
              <tr>
                <th className={cell}>Target</th>
                <th className={cell}>Port</th>
                <th className={cell}>Local address</th>
                <th className={cell}>Status</th>
                <th className={cell}>Connections</th>
                <th className={cell}>In / out</th>
                <th className={cell}>Started</th>
                <th className={cell}>
                  <span className="sr-only">Stop</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {forwards.data.items.map((f) => {
                const url = `http://${f.address}:${f.localPort}`;
                return (
                  <tr key={f.id}>
                    <td className={`${cell} font-mono text-xs`}>
                      {f.namespace}/{f.service ? `svc/${f.service} → ` : ''}
                      {f.pod}
                    </td>
                    <td className={cell}>
                      {String(f.port)}
                      {f.podPort !== f.port ? ` → ${f.podPort}` : ''}
                    </td>
                    <td className={cell}>{f.status === 'running' ? <ForwardLink url={url} /> : url}</td>
                    <td className={cell} title={f.error}>
                      {f.status}
                      {f.error ? `: ${f.error}` : ''}
                    </td>
                    <td className={cell}>{f.connections}</td>
                    <td className={cell}>
                      {bytes(f.bytesIn)} / {bytes(f.bytesOut)}
                    </td>
                    <td className={cell}>{since(f.startedAt)} ago</td>
                    <td className={cell}>
                      {f.status === 'running' && (
                        <button
                          type="button"
                          className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                          onClick={() => stop.mutate(f.id)}
                        >
                          Stop
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Open sessions">
        {sessions.isPending ? (
          <Loading what="the sessions" />
        ) : sessions.isError ? (
          <ErrorMessage error={sessions.error} what="the sessions" />
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
              {sessions.data.total} open:{' '}
              {Object.entries(sessions.data.counts)
                .map(([kind, count]) => `${count} ${kind}`)
                .join(', ')}
            </p>
            <table className="w-full text-left text-sm" aria-label="Open sessions">
              <thead className="text-xs text-slate-600 dark:text-slate-400">
                <tr>
                  <th className={cell}>Kind</th>
                  <th className={cell}>Target</th>
                  <th className={cell}>Open for</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {sessions.data.items.map((s) => (
                  <tr key={s.id}>
                    <td className={cell}>{s.kind}</td>
                    <td className={`${cell} font-mono text-xs`}>{s.target}</td>
                    <td className={cell}>{since(s.startedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Card>
    </div>
  );
}
