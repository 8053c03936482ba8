import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { CompareForm, type ObjectChoices, objectRefs } from './CompareForm.tsx';
import { CompareLayout } from './CompareLayout.tsx';
import { type CompareSearch, comparisonQuery, complete } from './search.ts';

const clusterObjects: ObjectChoices = (kind, _cluster, signal) => objectRefs(get, kind, signal);

/** Compare (docs/compare.md): two objects of a kind in this cluster, or one object now and as it was. */
export function ComparePage() {
  const search = useSearch({ from: '/compare' });
  const navigate = useNavigate();
  const ask = (next: CompareSearch) => void navigate({ to: '.', search: next });
  const asked = complete(search, false);
  const answer = useQuery({
    queryKey: ['compare', search],
    queryFn: ({ signal }) => get('/api/compare', { query: comparisonQuery(search), signal }),
    enabled: asked,
  });
  return (
    <CompareLayout
      title="Compare"
      lead="Two objects of a kind field by field, or one object now and as it was; status, defaults and what the server sets are folded away"
      form={<CompareForm key={JSON.stringify(search)} search={search} ask={ask} choices={clusterObjects} />}
      answer={answer}
      asked={asked}
    />
  );
}
