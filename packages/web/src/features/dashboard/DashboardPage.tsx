import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { type Answer, get } from '../../api/client.ts';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { AccessNotice, useRefusal } from '../shell/AccessNotice.tsx';
import { pods } from '../shell/access.ts';
import { useCapabilities } from '../shell/use-capabilities.ts';
import { CountsGrid } from './CountsGrid.tsx';
import { FindingsSummary } from './FindingsSummary.tsx';
import { HealthSummary } from './HealthSummary.tsx';
import { HelmReleases } from './HelmReleases.tsx';
import { ProblemsTable } from './ProblemsTable.tsx';
import { RecentEvents } from './RecentEvents.tsx';

export type Dashboard = Answer<'/api/dashboard'>;

const events = { kind: 'Event', plural: 'events', namespaced: true };

/** The first screen: what is broken, how much of everything there is, what just happened. */
export function DashboardPage() {
  const { namespace } = useSearch({ strict: false });
  const dashboard = useQuery({
    queryKey: ['dashboard', namespace],
    queryFn: ({ signal }) => get('/api/dashboard', { query: { namespace }, signal }),
    refetchInterval: 10_000,
  });
  const capabilities = useCapabilities({ namespace });
  const podsRefused = useRefusal(pods, namespace);
  const eventsRefused = useRefusal(events, namespace);
  if (dashboard.isPending) return <Loading what="the dashboard" />;
  if (dashboard.isError) return <ErrorMessage error={dashboard.error} what="the dashboard" />;
  const data = dashboard.data;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-5">
      <div className="flex items-baseline justify-between">
        <h1 className="text-xl font-semibold">
          Dashboard
          {namespace ? (
            <span className="font-normal text-slate-600 dark:text-slate-400"> · {namespace}</span>
          ) : null}
        </h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {data.cluster.platform} · Kubernetes {data.cluster.version ?? 'unknown'}
        </p>
      </div>
      {data.loading.length > 0 && (
        <p
          role="status"
          className="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Still loading {data.loading.join(', ')}: their counts show once they arrive.
        </p>
      )}
      <HealthSummary health={data.health} refused={podsRefused !== undefined} />
      <CountsGrid counts={data.counts} access={capabilities.data} />
      {/* Certificates and audit findings are of the namespaces in view: with none, there is nothing to sum up. */}
      {!podsRefused && (
        <FindingsSummary certificates={data.certificates} audit={data.audit} auditError={data.auditError} />
      )}
      <div className="grid items-start gap-5 xl:grid-cols-2">
        <Card title={`Problems (${data.problemGroups.reduce((sum, g) => sum + g.count, 0)})`}>
          {podsRefused && data.problemGroups.length === 0 ? (
            <AccessNotice refusal={podsRefused} short />
          ) : (
            <ProblemsTable groups={data.problemGroups} />
          )}
        </Card>
        <Card title="Recent events">
          {eventsRefused && data.recentEvents.length === 0 ? (
            <AccessNotice refusal={eventsRefused} short />
          ) : (
            <RecentEvents events={data.recentEvents} />
          )}
        </Card>
      </div>
      <HelmReleases namespace={namespace} />
    </div>
  );
}
