import { useQuery } from '@tanstack/react-query';
import { hubClusterId } from '../../api/client.ts';
import { hub } from '../../hub/api.ts';
import { usePreferences } from '../../hub/preferences/preferences.ts';
import { clusterHome } from '../../hub/shell/cluster-home.ts';

/**
 * Through the hub: the other clusters of the organization, one pick away (each opens its own agent's pages), and
 * the way back to the hub's pages. Against an agent directly, nothing.
 */
export function ClusterSwitcher() {
  const current = hubClusterId;
  const clusters = useQuery({
    queryKey: ['hub-clusters'],
    enabled: Boolean(current),
    queryFn: ({ signal }) => hub.get('/api/clusters', { signal }),
    staleTime: 30_000,
  });
  const preferences = usePreferences({ enabled: Boolean(current) });
  if (!current) return null;
  return (
    <div className="flex items-center gap-2 text-sm">
      <a href="/" className="text-teal-800 hover:underline dark:text-teal-300">
        All clusters
      </a>
      {clusters.data && clusters.data.items.length > 1 && (
        <select
          aria-label="Switch cluster"
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800"
          value={current}
          // A full load: another cluster's pages are another agent's.
          onChange={(e) =>
            window.location.assign(clusterHome(e.target.value, preferences.data?.defaultNamespace))
          }
        >
          {clusters.data.items.map((cluster) => (
            <option key={cluster.id} value={cluster.id}>
              {cluster.name}
              {cluster.connected ? '' : ' (not connected)'}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
