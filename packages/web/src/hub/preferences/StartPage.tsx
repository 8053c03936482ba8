import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Loading } from '../../ui/states.tsx';
import { hub } from '../api.ts';
import { goTo } from '../router.tsx';
import { clusterHome } from '../shell/cluster-home.ts';
import { usePreferences } from './preferences.ts';

/**
 * Where a sign-in without a page to return to lands: your default cluster when you chose one and it is still
 * in this organisation, else the list of clusters.
 */
export function StartPage() {
  const preferences = usePreferences();
  const chosen = preferences.data?.defaultClusterId;
  const clusters = useQuery({
    queryKey: ['clusters'],
    enabled: Boolean(chosen),
    queryFn: ({ signal }) => hub.get('/api/clusters', { signal }),
  });
  const settled = preferences.isError || (preferences.isSuccess && (!chosen || !clusters.isPending));
  useEffect(() => {
    if (!settled) return;
    const cluster = clusters.data?.items.find((c) => c.id === chosen);
    // A full load: a cluster's pages are its agent's UI, outside this router.
    if (cluster) window.location.replace(clusterHome(cluster.id, preferences.data?.defaultNamespace));
    else void goTo('/', { replace: true });
  }, [settled, clusters.data, chosen, preferences.data?.defaultNamespace]);
  return <Loading what="your start page" />;
}
