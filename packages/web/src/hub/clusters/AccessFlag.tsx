import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { hiddenFromView, pods } from '../../features/shell/access.ts';
import { agentOf } from '../api.ts';

/** The tunnel's own answers while an agent comes and goes: the connection column says those. */
const passing = new Set(['cluster_offline', 'cluster_disconnected']);

/**
 * Under a connected cluster: whether the person may see anything in it, as its agent reports in its capabilities
 * (the hub only carries the question, ADR 0065). A view without a single pod is flagged with the identity the
 * agent asked as, so "Connected" is not read as "working" when every page of the cluster would be empty.
 */
export function AccessFlag({ clusterId, owner }: { clusterId: string; owner: boolean }) {
  const capabilities = useQuery({
    queryKey: ['cluster-capabilities', clusterId],
    queryFn: ({ signal }) => agentOf(clusterId).get('/api/capabilities', { signal }),
    staleTime: 60_000,
    refetchInterval: 60_000,
    retry: false,
  });
  const error = capabilities.error;
  if (error && !(error instanceof ApiError && passing.has(error.code)))
    return <Flag>Access could not be checked: {error.message}</Flag>;
  const refusal = capabilities.data && hiddenFromView(capabilities.data, pods);
  if (!refusal) return null;
  return (
    <Flag>
      {refusal.short}{' '}
      {owner ? (
        <a href="#agent-rbac" className="underline">
          The bindings an agent outside the chart needs
        </a>
      ) : (
        'An owner of the organization can say which bindings it needs.'
      )}
    </Flag>
  );
}

function Flag({ children }: { children: React.ReactNode }) {
  return <p className="mt-1 max-w-md text-xs text-amber-900 dark:text-amber-200">{children}</p>;
}
