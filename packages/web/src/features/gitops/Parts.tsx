import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Action } from '../../ui/ActionsPanel.tsx';
import { linkLook } from '../../ui/controls.tsx';
import { HealthBadge } from '../../ui/HealthBadge.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { ago, Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { StateBadge } from './Badges.tsx';
import type { Condition, ManagedResource } from './types.ts';

const cell = 'py-2 pr-4 align-top';
const muted = 'text-slate-600 dark:text-slate-400';

/** The facts of an object's summary, a term above each value. */
export function Facts({ facts }: { facts: [string, ReactNode, 'wide'?][] }) {
  return (
    <section
      aria-label="Summary"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-6">
        {facts.map(([term, value, wide]) => (
          <div key={term} className={`flex flex-col gap-0.5 ${wide ? 'col-span-full' : ''}`}>
            <dt className={`text-xs ${muted}`}>{term}</dt>
            <dd className="text-sm break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function BackToGitOps() {
  return (
    <Link to="/gitops" search={(prev) => ({ namespace: prev.namespace })} className={`text-sm ${linkLook}`}>
      ← all GitOps objects
    </Link>
  );
}

/** What a detail page shows until its object has loaded: that it is loading, or why not with the way back. */
export function NotLoaded({ query, title }: { query: UseQueryResult<unknown>; title: string }) {
  if (query.isPending) return <Loading what={title} />;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-3">
      <BackToGitOps />
      <ErrorMessage error={query.error} what={title} />
    </div>
  );
}

/**
 * The objects a GitOps object applied, with the tool's own sync and health of each where it reports them and the
 * cache's live health; drifted ones (out of sync, or gone) are marked.
 */
export function ManagedResources({
  resources,
  tool,
}: {
  resources: ManagedResource[];
  /** The tool that reports sync and health per object (Argo CD); Flux reports neither. */
  tool?: string;
}) {
  const drifted = resources.filter((r) => r.sync === 'OutOfSync' || r.live === 'missing').length;
  return (
    <Card
      title="Managed resources"
      aside={
        <span className={`text-xs ${muted}`}>
          {resources.length} objects{drifted > 0 ? `, ${drifted} drifted` : ''}
        </span>
      }
    >
      {resources.length === 0 ? (
        <Empty>Nothing applied yet, or the tool does not report what it applied.</Empty>
      ) : (
        <Table
          columns={['Kind', 'Object', ...(tool ? [`${tool} sync`, `${tool} health`] : []), 'Live health']}
        >
          {resources.map((r) => {
            const drift = r.sync === 'OutOfSync' || r.live === 'missing';
            return (
              <tr
                key={`${r.group}/${r.kind}/${r.namespace}/${r.name}`}
                className={drift ? 'bg-amber-50 dark:bg-amber-950/40' : ''}
              >
                <td className={cell}>
                  {r.kind}
                  {r.group && <span className={`ml-1 text-xs ${muted}`}>{r.group}</span>}
                </td>
                <td className={cell}>
                  {r.live === 'missing' ? (
                    <span className="font-mono text-xs">
                      {r.namespace ? `${r.namespace}/` : ''}
                      {r.name}
                    </span>
                  ) : (
                    <ObjectLink kind={r.kind} namespace={r.namespace} name={r.name} />
                  )}
                  {drift && (
                    <span className="ml-2 text-xs font-medium text-amber-900 dark:text-amber-200">drift</span>
                  )}
                </td>
                {tool && (
                  <>
                    <td className={cell}>{r.sync ? <StateBadge state={r.sync} /> : '—'}</td>
                    <td className={cell}>{r.toolHealth ? <StateBadge state={r.toolHealth} /> : '—'}</td>
                  </>
                )}
                <td className="py-2 align-top">
                  <HealthBadge health={r.live} />
                </td>
              </tr>
            );
          })}
        </Table>
      )}
    </Card>
  );
}

/** The object's status conditions as its controller wrote them. */
export function Conditions({ conditions }: { conditions: Condition[] }) {
  if (conditions.length === 0) return null;
  return (
    <Card title="Conditions">
      <Table columns={['Type', 'Status', 'Reason', 'Message', 'Since']}>
        {conditions.map((c) => (
          <tr key={c.type}>
            <td className={cell}>{c.type}</td>
            <td className={cell}>{c.status ?? '—'}</td>
            <td className={cell}>{c.reason ?? '—'}</td>
            <td className={`${cell} text-xs`}>{c.message ?? '—'}</td>
            <td className="py-2 align-top text-xs" title={c.lastTransitionTime}>
              {c.lastTransitionTime ? ago(c.lastTransitionTime) : '—'}
            </td>
          </tr>
        ))}
      </Table>
    </Card>
  );
}

/**
 * Suspend while running, resume while suspended: the one of the pair that applies now, posting to the route of the
 * same name.
 */
export function suspendOrResume<C>(
  suspended: boolean,
  post: (action: 'suspend' | 'resume') => Promise<{ message: string }>,
  words: Record<'suspend' | 'resume', { label: string; explain: string }>,
): Action<C> {
  const action = suspended ? 'resume' : 'suspend';
  return { ...words[action], run: () => post(action) };
}
