import type { KubeObject } from '@binnacle/common';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';

/** The namespaces to pick from (the same query the namespace picker makes). */
export function useNamespaceNames(): string[] {
  const namespaces = useQuery({
    queryKey: ['namespaces'],
    queryFn: ({ signal }) => get('/api/namespaces', { signal }),
  });
  return namespaces.data?.items.map((ns) => ns.name) ?? [];
}

/** The pods or Services of a namespace, by name with their labels, to suggest in the tester's fields. */
export function useObjectNames(
  kind: 'pods' | 'services',
  namespace: string,
): { name: string; labels: string }[] {
  const objects = useQuery({
    queryKey: ['netpol-names', kind, namespace],
    queryFn: ({ signal }) =>
      get('/api/resources/{kind}', {
        params: { kind },
        query: { namespace, summary: 'true', limit: 1000 },
        signal,
      }),
    enabled: namespace !== '',
    staleTime: 15_000,
  });
  return ((objects.data?.items ?? []) as KubeObject[]).map((o) => ({
    name: o.metadata?.name ?? '',
    labels: Object.entries(o.metadata?.labels ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  }));
}
