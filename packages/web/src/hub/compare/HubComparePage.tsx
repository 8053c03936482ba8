import { useQuery } from '@tanstack/react-query';
import { CompareForm, type ObjectChoices, objectRefs } from '../../features/compare/CompareForm.tsx';
import { CompareLayout } from '../../features/compare/CompareLayout.tsx';
import { type CompareSearch, comparisonQuery, complete } from '../../features/compare/search.ts';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { agentOf, hub } from '../api.ts';
import { useHubSearch } from '../route-api.ts';
import { goTo } from '../router.tsx';

const clusterObjects: ObjectChoices = (kind, cluster, signal) =>
  cluster ? objectRefs(agentOf(cluster).get, kind, signal) : Promise.resolve([]);

/** Compare across clusters (docs/compare.md): two objects of a kind, each in a cluster of the organisation. */
export function HubComparePage() {
  const search = useHubSearch('/signed-in/compare');
  const ask = (next: CompareSearch) => void goTo('/compare', { search: { ...next } });
  const clusters = useQuery({
    queryKey: ['clusters'],
    queryFn: ({ signal }) => hub.get('/api/clusters', { signal }),
  });
  const asked = complete(search, true);
  const answer = useQuery({
    queryKey: ['compare', search],
    queryFn: ({ signal }) =>
      hub.get('/api/compare', {
        query: {
          ...comparisonQuery(search),
          leftCluster: search.leftCluster ?? '',
          rightCluster: search.rightCluster ?? '',
        },
        signal,
      }),
    enabled: asked,
  });
  return (
    <CompareLayout
      title="Compare across clusters"
      lead="Two objects of a kind, each in a cluster of your organisation and read as you; status, defaults and what the server sets are folded away"
      form={
        clusters.isPending ? (
          <Loading what="the clusters" />
        ) : clusters.isError ? (
          <ErrorMessage error={clusters.error} what="the clusters" />
        ) : (
          <CompareForm
            key={JSON.stringify(search)}
            search={search}
            ask={ask}
            clusters={clusters.data.items.map((c) => ({ ...c, connected: c.connected === true }))}
            choices={clusterObjects}
          />
        )
      }
      answer={answer}
      asked={asked}
    />
  );
}
