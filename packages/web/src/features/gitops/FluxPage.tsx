import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { get, type PostAnswer, post } from '../../api/client.ts';
import { type Action, ActionsPanel } from '../../ui/ActionsPanel.tsx';
import { linkLook } from '../../ui/controls.tsx';
import { ago } from '../../ui/states.tsx';
import { fluxState, StateBadge } from './Badges.tsx';
import { BackToGitOps, Conditions, Facts, ManagedResources, NotLoaded, suspendOrResume } from './Parts.tsx';
import { type FluxDetail, fluxKinds, inMotion, shortRevision } from './types.ts';

/** What an action answers; only a sync-with-source's names the sources it reconciled first, in order. */
type ActionAnswer = PostAnswer<'/api/gitops-b/{kind}/{namespace}/{name}/reconcile'> &
  Partial<Pick<PostAnswer<'/api/gitops-b/{kind}/{namespace}/{name}/sync-with-source'>, 'sources'>>;

function fluxActions(o: FluxDetail): Action<object>[] {
  const params = { kind: o.kind, namespace: o.namespace, name: o.name };
  const path = '/api/gitops-b/{kind}/{namespace}/{name}' as const;
  const suspended = o.suspended ? 'it is suspended: resume it' : undefined;
  const actions: Action<object>[] = [
    {
      label: 'Reconcile',
      explain: `Asks Flux to reconcile ${o.kind} ${o.namespace}/${o.name} now, as flux reconcile does.`,
      run: () => post(`${path}/reconcile`, { params }),
      unavailable: suspended,
    },
  ];
  if (o.kind === 'Kustomization' || o.kind === 'HelmRelease')
    actions.push({
      label: 'Sync with source',
      explain: `Reconciles the source first and waits until Flux has fetched it (up to a minute per source), then ${o.name}, as flux reconcile --with-source does.`,
      run: () => post(`${path}/sync-with-source`, { params }),
      unavailable: suspended,
    });
  actions.push(
    suspendOrResume(o.suspended, (action) => post(`${path}/${action}`, { params }), {
      suspend: {
        label: 'Suspend',
        explain: 'Stops Flux reconciling it (spec.suspend) until it is resumed; what it applied stays.',
      },
      resume: {
        label: 'Resume',
        explain: 'Lets Flux reconcile it again, and asks for a reconcile now, as flux resume does.',
      },
    }),
  );
  return actions;
}

/** One Flux source, Kustomization or HelmRelease: its state, actions, conditions and what it applied. */
export function FluxPage() {
  const params = useParams({ from: '/gitops/flux/$kind/$namespace/$name' });
  const detail = useQuery({
    queryKey: ['gitops', 'flux', params.kind, params.namespace, params.name],
    queryFn: ({ signal }) => get('/api/gitops-b/{kind}/{namespace}/{name}', { params, signal }),
    refetchInterval: (query) => (query.state.data && inMotion(query.state.data) ? 2_000 : 5_000),
  });
  const title = `${params.kind} ${params.namespace}/${params.name}`;
  if (!detail.isSuccess) return <NotLoaded query={detail} title={title} />;
  const o = detail.data;
  const source = o.source;
  const sourceKind = fluxKinds.find((k) => k === source?.kind);
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <BackToGitOps />
      <h1 className="text-xl font-semibold">
        <span className="text-slate-600 dark:text-slate-400">Flux {o.kind}</span> {o.namespace}/{o.name}
      </h1>
      <Facts
        facts={[
          ['State', <StateBadge key="state" state={fluxState(o)} />],
          ['Reason', o.reason ?? '—'],
          [
            'Revision',
            <span key="rev" className="font-mono text-xs" title={o.revision}>
              {shortRevision(o.revision)}
            </span>,
          ],
          [
            'Last reconcile',
            <span key="last" title={o.lastHandledReconcileAt}>
              {o.lastHandledReconcileAt ? ago(o.lastHandledReconcileAt) : '—'}
            </span>,
          ],
          [
            'Source',
            source?.name && sourceKind ? (
              <Link
                key="source"
                to="/gitops/flux/$kind/$namespace/$name"
                params={{ kind: sourceKind, namespace: source.namespace ?? o.namespace, name: source.name }}
                search={(prev) => ({ namespace: prev.namespace })}
                className={linkLook}
              >
                {source.kind} {source.name}
              </Link>
            ) : (
              '—'
            ),
          ],
          ['Suspended', o.suspended ? 'yes' : 'no'],
          ...(o.message ? [['Message', o.message, 'wide'] as [string, string, 'wide']] : []),
        ]}
      />
      <ActionsPanel<object, ActionAnswer>
        subject={{ kind: o.kind, namespace: o.namespace, name: o.name }}
        actions={fluxActions(o)}
        initial={{}}
        invalidate={[['gitops']]}
        report={(answer) =>
          answer?.sources && (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              Reconciled first:{' '}
              {answer.sources.map((s) => `${s.kind} ${s.namespace}/${s.name}`).join(', then ')}
            </p>
          )
        }
      />
      {(o.kind === 'Kustomization' || o.kind === 'HelmRelease') && (
        <ManagedResources resources={o.resources} />
      )}
      <Conditions conditions={o.conditions} />
    </div>
  );
}
