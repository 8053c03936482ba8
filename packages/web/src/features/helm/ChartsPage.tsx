import { Link, useSearch } from '@tanstack/react-router';
import { linkLook } from '../../ui/controls.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { CatalogTab } from './CatalogTab.tsx';
import { SourcesTab } from './SourcesTab.tsx';
import type { ChartsSearch } from './search.ts';

/** Charts to install: those of the agent's configured sources, and a search of the public catalog. */
export function ChartsPage() {
  const search = useSearch({ from: '/helm/charts' });
  const setSearch = useSearchPatch<ChartsSearch>();
  const tab = search.tab ?? 'sources';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <Link to="/helm" search={{ namespace: search.namespace }} className={`text-sm ${linkLook}`}>
        ← Helm releases
      </Link>
      <h1 className="text-xl font-semibold">Helm charts</h1>
      <Tabs
        label="Where charts come from"
        tabs={[
          { id: 'sources', label: 'Configured sources' },
          { id: 'catalog', label: 'Catalog' },
        ]}
        current={tab}
        // A search belongs to its tab.
        choose={(t) => setSearch({ tab: t, q: undefined })}
      >
        {tab === 'sources' ? (
          <SourcesTab query={search.q} setQuery={(q) => setSearch({ q })} />
        ) : (
          <CatalogTab key={search.q} query={search.q} setQuery={(q) => setSearch({ q })} />
        )}
      </Tabs>
    </div>
  );
}
