import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { get, post } from '../../api/client.ts';
import { Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { ForwardLink, useForwardChange, usePortForwards } from './forwards.tsx';

const button =
  'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

/**
 * The ports a pod or a Service offers, each forwardable to a local port of the agent's host (127.0.0.1, picked
 * by the agent); a running forward shows its address to open.
 */
export function PortForwardCard({
  type,
  namespace,
  name,
  unavailable,
}: {
  type: 'pod' | 'service';
  namespace: string;
  name: string;
  /** Why no forward can be made here (through the hub, in a cluster, RBAC): said instead of the ports. */
  unavailable?: string;
}) {
  const params = { type, namespace, name };
  const ports = useQuery({
    queryKey: ['forwardable', type, namespace, name],
    queryFn: ({ signal }) => get('/api/portforwards/available/{type}/{namespace}/{name}', { params, signal }),
    enabled: !unavailable,
  });
  const forwards = usePortForwards(5_000, unavailable);
  const start = useForwardChange((port: number) =>
    post('/api/portforwards', { body: { namespace, [type]: name, port } }),
  );
  const running = (forwards.data?.items ?? []).filter(
    (f) =>
      f.status === 'running' &&
      f.namespace === namespace &&
      (type === 'pod' ? f.pod === name && !f.service : f.service === name),
  );
  return (
    <Card
      title="Port-forward"
      aside={
        <Link to="/sessions" className="text-sm text-teal-800 hover:underline dark:text-teal-300">
          All forwards and sessions →
        </Link>
      }
    >
      {unavailable ? (
        <p className="text-sm">{unavailable}</p>
      ) : ports.isPending ? (
        <Loading what="its ports" />
      ) : ports.isError ? (
        <ErrorMessage error={ports.error} what="its ports" />
      ) : ports.data.ports.length === 0 ? (
        <Empty>No ports declared.</Empty>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {ports.data.ports.map((p) => {
            const forward = running.find((f) => f.port === p.port || f.podPort === p.port);
            const url = forward && `http://${forward.address}:${forward.localPort}`;
            return (
              <li key={`${p.port}/${p.protocol}`} className="flex items-center gap-3">
                <span className="w-48 font-mono text-xs">
                  {p.port}/{p.protocol}
                  {p.name ? ` (${p.name})` : ''}
                </span>
                {url ? (
                  <ForwardLink url={url} />
                ) : (
                  <button
                    type="button"
                    className={button}
                    disabled={start.isPending}
                    onClick={() => start.mutate(p.port)}
                  >
                    Forward {p.port}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {start.isError && (
        <div className="mt-3">
          <ErrorMessage error={start.error} what="the forward" verb="start" />
        </div>
      )}
    </Card>
  );
}
