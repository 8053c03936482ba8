import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { get, post } from '../../api/client.ts';
import { type Action, ActionsPanel } from '../../ui/ActionsPanel.tsx';
import { Checkbox } from '../../ui/controls.tsx';
import { controlLook } from '../../ui/forms.tsx';
import { ago, Card } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { StateBadge } from './Badges.tsx';
import { BackToGitOps, Conditions, Facts, ManagedResources, NotLoaded, suspendOrResume } from './Parts.tsx';
import { type ApplicationDetail, inMotion, operationText, shortRevision } from './types.ts';

/** What the sync dialog lets a person choose, as Argo CD's own sync panel does. */
interface SyncChoices {
  revision: string;
  prune: boolean;
  dryRun: boolean;
  applyOnly: boolean;
  force: boolean;
  serverSideApply: boolean;
  replace: boolean;
}
const noChoices: SyncChoices = {
  revision: '',
  prune: false,
  dryRun: false,
  applyOnly: false,
  force: false,
  serverSideApply: false,
  replace: false,
};
const syncOptions: [keyof Omit<SyncChoices, 'revision'>, string][] = [
  ['prune', 'Prune: delete objects no longer in Git'],
  ['dryRun', 'Dry run'],
  ['applyOnly', 'Apply only: skip hooks'],
  ['force', 'Force: delete and re-create what cannot be patched'],
  ['serverSideApply', 'Server-side apply'],
  ['replace', 'Replace instead of apply'],
];

function SyncForm({
  choices,
  set,
  target,
}: {
  choices: SyncChoices;
  set: (c: Partial<SyncChoices>) => void;
  target?: string;
}) {
  return (
    <div className="mt-3 flex flex-col gap-2">
      <label className="flex flex-col gap-1 text-sm">
        Revision
        <input
          className={controlLook}
          value={choices.revision}
          placeholder={target ? `${target} (the target revision)` : 'the target revision'}
          onChange={(e) => set({ revision: e.target.value })}
        />
      </label>
      {syncOptions.map(([key, label]) => (
        <Checkbox
          key={key}
          label={label}
          checked={choices[key]}
          onChange={(checked) => set({ [key]: checked })}
        />
      ))}
    </div>
  );
}

function applicationActions(app: ApplicationDetail): Action<SyncChoices>[] {
  const params = { namespace: app.namespace, name: app.name };
  const path = '/api/gitops-a/applications/{namespace}/{name}' as const;
  const running = app.operation.running || app.operation.phase === 'Running';
  const actions: Action<SyncChoices>[] = [
    {
      label: 'Sync',
      explain: `Asks Argo CD to sync ${app.namespace}/${app.name} to its target revision (or the one given), as the Sync button of Argo CD does.`,
      run: ({ revision, ...options }) =>
        post(`${path}/sync`, {
          params,
          body: {
            ...(revision.trim() ? { revision: revision.trim() } : {}),
            ...Object.fromEntries(Object.entries(options).filter(([, on]) => on)),
          },
        }),
      form: (choices, set) => <SyncForm choices={choices} set={set} target={app.source.targetRevision} />,
      unavailable: running ? 'an operation is in progress' : undefined,
    },
    {
      label: 'Refresh',
      explain: 'Asks Argo CD to compare the live objects with Git again now.',
      run: () => post(`${path}/refresh`, { params, body: {} }),
    },
    {
      label: 'Hard refresh',
      explain: 'Asks Argo CD to re-read the source (no cached manifests) and compare again.',
      run: () => post(`${path}/refresh`, { params, body: { hard: true } }),
    },
    {
      label: 'Terminate',
      explain: 'Stops the running operation; what it already applied stays.',
      run: () => post(`${path}/terminate`, { params }),
      unavailable: app.operation.phase === 'Running' ? undefined : 'no operation is running',
    },
  ];
  if (app.automated)
    actions.push(
      suspendOrResume(!app.automated.enabled, (action) => post(`${path}/${action}`, { params }), {
        suspend: {
          label: 'Suspend auto-sync',
          explain: 'Turns automated sync off; prune and self-heal are kept for when it is resumed.',
        },
        resume: {
          label: 'Resume auto-sync',
          explain: 'Turns automated sync on again, with prune and self-heal as they were.',
        },
      }),
    );
  return actions;
}

/** One Argo CD Application: its state, the operation in progress, actions, what it manages and its history. */
export function ApplicationPage() {
  const params = useParams({ from: '/gitops/applications/$namespace/$name' });
  const detail = useQuery({
    queryKey: ['gitops', 'application', params.namespace, params.name],
    queryFn: ({ signal }) => get('/api/gitops-a/applications/{namespace}/{name}', { params, signal }),
    refetchInterval: (query) => (query.state.data && inMotion(query.state.data) ? 2_000 : 5_000),
  });
  const title = `Application ${params.namespace}/${params.name}`;
  if (!detail.isSuccess) return <NotLoaded query={detail} title={title} />;
  const app = detail.data;
  const operation = operationText(app.operation);
  const automated = app.automated
    ? `${app.automated.enabled ? 'on' : 'suspended'}${app.automated.prune ? ', prune' : ''}${app.automated.selfHeal ? ', self-heal' : ''}`
    : 'manual';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <BackToGitOps />
      <h1 className="text-xl font-semibold">
        <span className="text-slate-600 dark:text-slate-400">Argo CD application</span> {app.namespace}/
        {app.name}
      </h1>
      <Facts
        facts={[
          ['Sync', <StateBadge key="sync" state={app.sync} />],
          ['Health', <StateBadge key="health" state={app.health} />],
          [
            'Revision',
            <span key="rev" className="font-mono text-xs" title={app.revision}>
              {shortRevision(app.revision)}
            </span>,
          ],
          ['Target', app.source.targetRevision ?? 'HEAD'],
          ['Auto-sync', automated],
          ['Project', app.project ?? 'default'],
          [
            'Source',
            <span key="src" className="font-mono text-xs">
              {[app.source.repoURL, app.source.path ?? app.source.chart].filter(Boolean).join(' · ') || '—'}
            </span>,
            'wide',
          ],
          [
            'Destination',
            `${app.destination.name ?? app.destination.server ?? '—'} → ${app.destination.namespace ?? '—'}`,
            'wide',
          ],
          ...(app.healthMessage
            ? [['Health message', app.healthMessage, 'wide'] as [string, string, 'wide']]
            : []),
        ]}
      />
      {operation && (
        <p
          role="status"
          aria-label="Operation"
          className="rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
        >
          {operation}
          {(app.operation.finishedAt ?? app.operation.startedAt) && (
            <span className="ml-2 text-xs">
              {app.operation.finishedAt
                ? `finished ${ago(app.operation.finishedAt)}`
                : `started ${ago(app.operation.startedAt)}`}
            </span>
          )}
        </p>
      )}
      <ActionsPanel
        subject={{ kind: 'Application', namespace: app.namespace, name: app.name }}
        actions={applicationActions(app)}
        initial={noChoices}
        invalidate={[['gitops']]}
      />
      <ManagedResources resources={app.resources} tool="Argo CD" />
      {app.history.length > 0 && (
        <Card title="History">
          <Table columns={['ID', 'Revision', 'Deployed']}>
            {app.history.map((h) => (
              <tr key={h.id}>
                <td className="py-2 pr-4 tabular-nums">{h.id}</td>
                <td className="py-2 pr-4 font-mono text-xs">{shortRevision(h.revision)}</td>
                <td className="py-2 text-xs" title={h.deployedAt}>
                  {ago(h.deployedAt)}
                </td>
              </tr>
            ))}
          </Table>
        </Card>
      )}
      <Conditions conditions={app.conditions} />
    </div>
  );
}
