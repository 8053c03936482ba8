import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';

/** Where a palette entry of the Helm pages goes. */
export type HelmTarget =
  | { page: 'releases' }
  | { page: 'charts' }
  | { page: 'release'; namespace: string; name: string };

export interface HelmPaletteEntry {
  label: string;
  detail: string;
  helm: HelmTarget;
}

/** The Helm pages, and every release of the namespace in view by name, for the command palette. */
export function useHelmPaletteEntries(open: boolean, namespace?: string): HelmPaletteEntry[] {
  const releases = useQuery({
    queryKey: ['helm', 'releases', namespace],
    queryFn: ({ signal }) => get('/api/pkgmgr/releases', { query: { namespace }, signal }),
    enabled: open,
    staleTime: 15_000,
  });
  return [
    { label: 'Helm releases', detail: 'page', helm: { page: 'releases' } },
    { label: 'Helm charts', detail: 'page · install', helm: { page: 'charts' } },
    ...(releases.data?.releases ?? []).map((r) => ({
      label: r.name,
      detail: `Helm release · ${r.namespace}`,
      helm: { page: 'release' as const, namespace: r.namespace, name: r.name },
    })),
  ];
}
