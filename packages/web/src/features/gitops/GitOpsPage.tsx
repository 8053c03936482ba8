import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { linkLook, panelLook } from '../../ui/controls.tsx';
import { ago, Empty, ErrorMessage, Loading, StillLoading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { fluxState, StateBadge } from './Badges.tsx';
import {
  type ApplicationSummary,
  type FluxSummary,
  inMotion,
  operationText,
  shortRevision,
} from './types.ts';

export interface GitOpsSearch {
  q?: string;
}

const cell = 'py-2 pr-4 align-top';
const muted = 'text-slate-600 dark:text-slate-400';
const matches = (o: { name: string; namespace: string }, q?: string) =>
  !q || `${o.namespace}/${o.name}`.toLowerCase().includes(q.toLowerCase());

/** How automated sync stands: on (with prune/self-heal), suspended (off, policy kept) or manual. */
function autoSync(app: ApplicationSummary): string {
  if (!app.automated) return 'manual';
  if (!app.automated.enabled) return 'suspended';
  const extras = [app.automated.prune && 'prune', app.automated.selfHeal && 'self-heal'].filter(Boolean);
  return extras.length > 0 ? `on (${extras.join(', ')})` : 'on';
}

const sourceText = ({ source }: ApplicationSummary) =>
  [source.repoURL?.replace(/^https?:\/\//, ''), source.path ?? source.chart].filter(Boolean).join(' · ');

function Applications({ apps }: { apps: ApplicationSummary[] }) {
  return (
    <Table
      columns={['Name', 'Namespace', 'Sync', 'Health', 'Auto-sync', 'Source', 'Destination', 'Operation']}
    >
      {apps.map((app) => (
        <tr key={`${app.namespace}/${app.name}`}>
          <td className={cell}>
            <Link
              to="/gitops/applications/$namespace/$name"
              params={{ namespace: app.namespace, name: app.name }}
              search={(prev) => ({ namespace: prev.namespace })}
              className={`font-medium ${linkLook}`}
            >
              {app.name}
            </Link>
          </td>
          <td className={`${cell} whitespace-nowrap`}>{app.namespace}</td>
          <td className={cell}>
            <StateBadge state={app.sync} />
            {app.outOfSync > 0 && <span className={`ml-1 text-xs ${muted}`}>{app.outOfSync} drifted</span>}
          </td>
          <td className={cell}>
            <StateBadge state={app.health} />
          </td>
          <td className={cell}>{autoSync(app)}</td>
          <td className={`${cell} max-w-72`}>
            <span className="block truncate font-mono text-xs" title={sourceText(app)}>
              {sourceText(app) || '—'}
            </span>
            <span className={`text-xs ${muted}`}>
              {app.source.targetRevision ?? 'HEAD'} at {shortRevision(app.revision)}
            </span>
          </td>
          <td className={`${cell} whitespace-nowrap`}>{app.destination.namespace ?? '—'}</td>
          <td className={`py-2 align-top text-xs ${muted}`}>{operationText(app.operation) ?? '—'}</td>
        </tr>
      ))}
    </Table>
  );
}

function FluxObjects({ objects }: { objects: FluxSummary[] }) {
  return (
    <Table columns={['Kind', 'Name', 'Namespace', 'State', 'Message', 'Revision', 'Last reconcile']}>
      {objects.map((o) => (
        <tr key={`${o.kind}/${o.namespace}/${o.name}`}>
          <td className={cell}>{o.kind}</td>
          <td className={cell}>
            <Link
              to="/gitops/flux/$kind/$namespace/$name"
              params={{ kind: o.kind, namespace: o.namespace, name: o.name }}
              search={(prev) => ({ namespace: prev.namespace })}
              className={`font-medium ${linkLook}`}
            >
              {o.name}
            </Link>
          </td>
          <td className={`${cell} whitespace-nowrap`}>{o.namespace}</td>
          <td className={cell}>
            <StateBadge state={fluxState(o)} />
          </td>
          <td className={`${cell} max-w-96`}>
            <span className={`line-clamp-2 text-xs ${muted}`} title={o.message}>
              {o.message ?? '—'}
            </span>
          </td>
          <td className={`${cell} whitespace-nowrap font-mono text-xs`} title={o.revision}>
            {shortRevision(o.revision)}
          </td>
          <td className="py-2 align-top text-xs" title={o.lastHandledReconcileAt}>
            {o.lastHandledReconcileAt ? ago(o.lastHandledReconcileAt) : '—'}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** Argo CD Applications and Flux objects of the namespace in view, with their sync and health, kept live. */
export function GitOpsPage() {
  const search = useSearch({ from: '/gitops' });
  const { namespace, q } = search;
  const setSearch = useSearchPatch<GitOpsSearch>();
  const overview = useQuery({
    queryKey: ['gitops', namespace],
    queryFn: ({ signal }) => get('/api/gitops', { query: { namespace }, signal }),
    refetchInterval: (query) =>
      [...(query.state.data?.applications ?? []), ...(query.state.data?.flux ?? [])].some(inMotion)
        ? 2_000
        : 10_000,
  });
  const apps = overview.data?.applications.filter((a) => matches(a, q)) ?? [];
  const flux = overview.data?.flux.filter((o) => matches(o, q)) ?? [];
  const where = namespace ? ` in ${namespace}` : '';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <h1 className="mr-auto text-xl font-semibold">GitOps</h1>
        <TextFilter label="Filter by name" value={q} onChange={(text) => setSearch({ q: text })} />
      </div>
      {overview.isPending ? (
        <Loading what="GitOps objects" />
      ) : overview.isError ? (
        <ErrorMessage error={overview.error} what="GitOps objects" />
      ) : (
        <>
          <StillLoading kinds={overview.data.loading} />
          <section aria-label="Argo CD applications" className={panelLook}>
            <h2 className="mb-2 text-sm font-semibold">
              Argo CD applications <span className={`font-normal ${muted}`}>{apps.length}</span>
            </h2>
            {apps.length === 0 ? (
              <Empty>No Argo CD Applications{where}.</Empty>
            ) : (
              <Applications apps={apps} />
            )}
          </section>
          <section aria-label="Flux" className={panelLook}>
            <h2 className="mb-2 text-sm font-semibold">
              Flux <span className={`font-normal ${muted}`}>{flux.length}</span>
            </h2>
            {flux.length === 0 ? (
              <Empty>No Flux sources, Kustomizations or HelmReleases{where}.</Empty>
            ) : (
              <FluxObjects objects={flux} />
            )}
          </section>
        </>
      )}
    </div>
  );
}
