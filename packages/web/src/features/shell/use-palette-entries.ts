import type { KubeObject } from '@binnacle/common';
import { useQueries, useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { type HelmTarget, useHelmPaletteEntries } from '../helm/palette.ts';
import { kindRef } from '../resources/KindList.tsx';

export interface PaletteEntry {
  /** What the list shows and the search matches. */
  label: string;
  detail: string;
  kind: string;
  namespace?: string;
  name?: string;
  /** Set for the Helm pages and releases, which are not kinds. */
  helm?: HelmTarget;
  /** Set for the pages that are not about one kind (the audit, certificates, network policies, upgrade readiness). */
  page?: PalettePage;
}

export type PalettePage = '/audit' | '/certificates' | '/network-policies' | '/upgrade';

/** The pages the palette opens by name, besides kinds and objects. */
const pageEntries: PaletteEntry[] = [
  { label: 'Audit', detail: 'page · best-practice findings', kind: 'page', page: '/audit' },
  { label: 'Certificates', detail: 'page · TLS expiry', kind: 'page', page: '/certificates' },
  {
    label: 'Network policies',
    detail: 'page · connection tester, matrix',
    kind: 'page',
    page: '/network-policies',
  },
  {
    label: 'Upgrade readiness',
    detail: 'page · removed and deprecated APIs',
    kind: 'page',
    page: '/upgrade',
  },
];

/** The kinds whose objects the palette finds by name (the ones people jump to). */
const searchedKinds = [
  'pods',
  'deployments',
  'statefulsets',
  'daemonsets',
  'services',
  'configmaps',
  'cronjobs',
  'nodes',
];

/**
 * Everything the palette can jump to: every kind the cluster serves, and the objects of the common kinds in the
 * namespace in view (summary lists from the agent's cache). Loaded when the palette opens.
 */
export function usePaletteEntries(open: boolean, namespace?: string): PaletteEntry[] {
  const kinds = useQuery({
    queryKey: ['api-resources'],
    queryFn: ({ signal }) => get('/api/api-resources', { signal }),
    enabled: open,
    staleTime: 60_000,
  });
  const objects = useQueries({
    queries: searchedKinds.map((kind) => ({
      queryKey: ['palette', kind, namespace],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        get('/api/resources/{kind}', {
          params: { kind },
          query: { namespace, summary: 'true', limit: 10_000 },
          signal,
        }),
      enabled: open,
      staleTime: 15_000,
    })),
  });
  const kindEntries: PaletteEntry[] = (kinds.data?.items ?? []).map((r) => ({
    label: r.kind,
    detail: r.group ? `kind · ${r.group}` : 'kind',
    kind: kindRef(r),
  }));
  const objectEntries = objects.flatMap((query, index) =>
    ((query.data?.items ?? []) as KubeObject[]).map((o) => ({
      label: o.metadata?.name ?? '',
      detail: `${query.data?.kind ?? ''}${o.metadata?.namespace ? ` · ${o.metadata.namespace}` : ''}`,
      kind: searchedKinds[index] ?? '',
      namespace: o.metadata?.namespace ?? '_',
      name: o.metadata?.name ?? '',
    })),
  );
  const helmEntries: PaletteEntry[] = useHelmPaletteEntries(open, namespace).map((e) => ({
    ...e,
    kind: 'helm',
    namespace: e.helm.page === 'release' ? e.helm.namespace : undefined,
  }));
  return [...pageEntries, ...kindEntries, ...helmEntries, ...objectEntries];
}
