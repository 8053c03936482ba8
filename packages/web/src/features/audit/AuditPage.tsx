import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { panelLook } from '../../ui/controls.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SelectFilter } from '../../ui/SelectFilter.tsx';
import { Empty, ErrorMessage, Loading, StillLoading } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { AuditSummary } from './AuditSummary.tsx';
import { CheckFindings } from './CheckFindings.tsx';
import { ObjectFindings } from './ObjectFindings.tsx';
import {
  type AuditReport,
  type AuditSearch,
  type AuditView,
  type Category,
  categories,
  findingMatches,
  groupByCheck,
  type Severity,
  severityWord,
} from './types.ts';

const auditQuery = (query: { namespace?: string; category?: Category; severity?: Severity }) => ({
  queryKey: ['audit', query],
  queryFn: ({ signal }: { signal: AbortSignal }) => get('/api/audit', { query, signal }),
  refetchInterval: 30_000,
  // A new filter keeps the findings in view until its answer replaces them (no flash of "Loading").
  placeholderData: keepPreviousData,
});

/** The report's objects with the findings the text filter keeps (an object without any is left out). */
function shownGroups(report: AuditReport, q?: string) {
  return report.groups
    .map((g) => ({ ...g, findings: g.findings.filter((f) => findingMatches(f, report.checks, q)) }))
    .filter((g) => g.findings.length > 0);
}

/** Why the list is empty, in words that say what was asked for. */
function nothingFound(search: AuditSearch & { namespace?: string }, anyFinding: boolean): string {
  const scope = search.namespace ? ` in ${search.namespace}` : '';
  if (!anyFinding) return `Every audited object${scope} passes every check.`;
  const what = [search.severity && severityWord[search.severity].toLowerCase(), search.category]
    .filter(Boolean)
    .join(' ');
  return `No ${what ? `${what} ` : ''}findings${scope}${search.q ? ` match “${search.q}”` : ''}.`;
}

/**
 * The best-practice audit of the namespace in view: counts per category, then the findings per object (most
 * dangerous first) or per check, each opening to the message, the check's explanation and how to fix it.
 */
export function AuditPage() {
  const search = useSearch({ from: '/audit' });
  const { namespace, category, severity, q } = search;
  const setSearch = useSearchPatch<AuditSearch>();
  // The summary always counts everything in view; the findings follow the category and severity filters.
  const all = useQuery(auditQuery({ namespace }));
  const filtered = useQuery(auditQuery({ namespace, category, severity }));
  const view = search.view ?? 'objects';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <PageHeading
        title="Audit"
        about={`Best-practice checks of the objects ${namespace ? `in ${namespace}` : 'in every namespace'}`}
      >
        <TextFilter label="Filter by object or check" value={q} onChange={(text) => setSearch({ q: text })} />
        <SelectFilter
          label="Category"
          all="All categories"
          value={category}
          options={categories.map((c) => [c, c] as const)}
          onChange={(c) => setSearch({ category: c })}
        />
        <SelectFilter
          label="Severity"
          all="Any severity"
          value={severity}
          options={[
            ['danger', 'Danger'],
            ['warning', 'Warning'],
          ]}
          onChange={(s) => setSearch({ severity: s })}
        />
      </PageHeading>
      {all.isPending ? (
        <Loading what="the audit" />
      ) : all.isError ? (
        <ErrorMessage error={all.error} what="the audit" />
      ) : (
        <>
          <StillLoading kinds={all.data.loading} />
          <AuditSummary
            summary={all.data.summary}
            category={category}
            choose={(c) => setSearch({ category: c })}
          />
          <section aria-label="Findings" className={panelLook}>
            {filtered.isPending ? (
              <Loading what="the findings" />
            ) : filtered.isError ? (
              <ErrorMessage error={filtered.error} what="the findings" />
            ) : (
              <Findings
                report={filtered.data}
                view={view}
                choose={(v) => setSearch({ view: v === 'objects' ? undefined : v })}
                empty={nothingFound(search, all.data.findings.length > 0)}
                q={q}
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}

function Findings(props: {
  report: AuditReport;
  view: AuditView;
  choose: (view: AuditView) => void;
  empty: string;
  q?: string;
}) {
  const { report, view, q } = props;
  const groups = shownGroups(report, q);
  const byCheck = groupByCheck(
    report.findings.filter((f) => findingMatches(f, report.checks, q)),
    report.checks,
  );
  return (
    <Tabs
      label="Group findings"
      tabs={[
        { id: 'objects', label: `Objects (${groups.length})` },
        { id: 'checks', label: `By check (${byCheck.length})` },
      ]}
      current={view}
      choose={props.choose}
    >
      {groups.length === 0 ? (
        <Empty>{props.empty}</Empty>
      ) : view === 'objects' ? (
        <ObjectFindings groups={groups} checks={report.checks} />
      ) : (
        <CheckFindings groups={byCheck} />
      )}
    </Tabs>
  );
}
