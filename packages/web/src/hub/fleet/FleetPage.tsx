import { useState } from 'react';
import { controlLook, Field, SubmitButton } from '../../ui/forms.tsx';
import { type Tab, Tabs } from '../../ui/Tabs.tsx';
import { useHubSearch } from '../route-api.ts';
import { goTo } from '../router.tsx';
import { AuditView, CertificatesView, PackagesView, ProblemsView, SearchView } from './FleetViews.tsx';
import { searchMaxChars } from './fleet-query.ts';

export const fleetTabs = ['problems', 'certs', 'audit', 'packages', 'search'] as const;
export type FleetTab = (typeof fleetTabs)[number];

export interface FleetSearch {
  tab?: FleetTab;
  /** The search's words; with them the Search tab is there. */
  q?: string;
}

const views: Record<Exclude<FleetTab, 'search'>, () => React.ReactNode> = {
  problems: ProblemsView,
  certs: CertificatesView,
  audit: AuditView,
  packages: PackagesView,
};

/** Why the hub would refuse these words (it answers 400), said before asking it. */
export function searchProblem(text: string): string | undefined {
  if (text.trim() === '') return 'Type something to look for.';
  if (text.length > searchMaxChars) return `At most ${searchMaxChars} characters (this is ${text.length}).`;
  return undefined;
}

/** Words to look for in every cluster; checked here as the hub checks them. */
function SearchForm({ q }: { q?: string }) {
  const [text, setText] = useState(q ?? '');
  const [problem, setProblem] = useState<string>();
  return (
    <form
      aria-label="Search every cluster"
      className="flex flex-wrap items-start gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const wrong = searchProblem(text);
        setProblem(wrong);
        if (!wrong) void goTo('/fleet', { search: { tab: 'search', q: text.trim() } });
      }}
    >
      <Field
        label="Search every cluster"
        className={`${controlLook} w-80`}
        type="search"
        placeholder="name, namespace, kind, label…"
        value={text}
        onText={(value) => {
          setText(value);
          if (problem) setProblem(searchProblem(value));
        }}
        error={problem}
      />
      <div className="pt-6">
        <SubmitButton busy={false} label="Search" busyLabel="Searching…" />
      </div>
    </form>
  );
}

/**
 * Every cluster of the organisation at once: its problems, certificates, audit and packages, or a search, each
 * row naming its cluster and opening the object in that cluster's pages.
 */
export function FleetPage() {
  const search = useHubSearch('/signed-in/fleet');
  const q = search.q;
  const current = search.tab === 'search' && !q ? 'problems' : (search.tab ?? (q ? 'search' : 'problems'));
  const tabs: Tab<FleetTab>[] = [
    { id: 'problems', label: 'Problems' },
    { id: 'certs', label: 'Certificates' },
    { id: 'audit', label: 'Audit' },
    { id: 'packages', label: 'Packages' },
    ...(q ? [{ id: 'search' as const, label: `Search: ${q.length > 24 ? `${q.slice(0, 24)}…` : q}` }] : []),
  ];
  const View = current === 'search' ? undefined : views[current];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      {/* Top-aligned, the heading level with the search box: a message under the box must not move it. */}
      <div className="flex flex-wrap items-start gap-3">
        <h1 className="mr-auto pt-6 text-xl font-semibold">Fleet</h1>
        <SearchForm key={q} q={q} />
      </div>
      <Tabs
        label="Fleet views"
        tabs={tabs}
        current={current}
        choose={(tab) => void goTo('/fleet', { search: { tab, q } })}
      >
        {View ? <View /> : <SearchView q={q ?? ''} />}
      </Tabs>
    </div>
  );
}
