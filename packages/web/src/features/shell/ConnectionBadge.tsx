import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { useRefusal } from './AccessNotice.tsx';
import { pods } from './access.ts';

const looks = {
  healthy: ['bg-emerald-500', 'Connected'],
  starting: ['bg-amber-500', 'Loading the cluster'],
  degraded: ['bg-amber-500', 'Degraded'],
  disconnected: ['bg-red-500', 'Disconnected'],
} as const;

/**
 * The agent's view of its cluster connection, refreshed every few seconds; connected but showing the caller no
 * pod at all is not green (the page's banner says why).
 */
export function ConnectionBadge() {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: ({ signal }) => get('/api/health', { signal }),
    refetchInterval: 5_000,
  });
  const refusal = useRefusal(pods);
  const [dot, label] = health.isError
    ? (['bg-red-500', 'Agent unreachable'] as const)
    : health.data?.status === 'healthy' && refusal
      ? (['bg-amber-500', 'Connected, no access'] as const)
      : looks[health.data?.status ?? 'starting'];
  const detail = health.data?.connection.error ?? refusal?.short;
  return (
    <span
      role="status"
      className="inline-flex items-center gap-2 rounded-full border border-slate-200 px-3 py-1 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-300"
      title={detail}
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dot}`} />
      {label}
    </span>
  );
}
