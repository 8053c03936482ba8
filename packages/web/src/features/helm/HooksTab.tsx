import { useQuery } from '@tanstack/react-query';
import { type Answer, get } from '../../api/client.ts';
import { Badge, type Tone } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { StatusBadge } from './Badges.tsx';
import { RevisionSelect } from './RevisionSelect.tsx';
import type { ReleaseRef, Revision } from './types.ts';

type Diagnostics = Answer<'/api/pkgmgr/releases/{namespace}/{name}/hooks'>;
type Hook = Diagnostics['hooks'][number];

const phaseTones: Record<string, Tone> = {
  Succeeded: 'good',
  Failed: 'bad',
  Running: 'warn',
  'not run': 'muted',
};
const cell = 'py-2 pr-4 align-top';
const when = (time?: string) => (time ? new Date(time).toLocaleString('en-GB') : '—');

/** The last lines of a hook's pod, read once: what the Job printed before it failed. */
function PodLogTail({ namespace, pod }: { namespace: string; pod: string }) {
  const log = useQuery({
    queryKey: ['helm', 'hook-log', namespace, pod],
    queryFn: ({ signal }) =>
      get('/api/pods/{namespace}/{name}/logs', {
        params: { namespace, name: pod },
        query: { tail: 40 },
        signal,
      }),
    retry: false,
  });
  if (log.isPending) return <Loading what={`the log of ${pod}`} />;
  if (log.isError) return <p className={`text-xs ${mutedLook}`}>No log to show: {log.error.message}</p>;
  const lines = log.data.lines;
  return lines.length === 0 ? (
    <p className={`text-xs ${mutedLook}`}>{pod} wrote no log lines.</p>
  ) : (
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a long log scrolls; the keyboard must reach it.
      tabIndex={0}
      aria-label={`Last lines of ${pod}`}
      className="max-h-60 overflow-auto rounded-md bg-slate-950 p-3"
    >
      <pre className="font-mono text-xs leading-5 text-slate-100">{lines.map((l) => l.line).join('\n')}</pre>
    </section>
  );
}

function HookCard({ hook }: { hook: Hook }) {
  const failed = hook.phase === 'Failed';
  const newestPod = hook.pods.at(-1);
  return (
    <section
      aria-label={`Hook ${hook.name}`}
      className={`rounded-md border p-3 ${failed ? 'border-red-300 dark:border-red-800' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="font-mono text-sm font-semibold">
          {hook.present ? (
            <ObjectLink kind={hook.kind} namespace={hook.namespace} name={hook.name} />
          ) : (
            hook.name
          )}
        </h3>
        <span className={`text-xs ${mutedLook}`}>{hook.kind}</span>
        <Badge tone={phaseTones[hook.phase] ?? 'warn'}>{hook.phase}</Badge>
        <span className={`text-xs ${mutedLook}`}>
          {hook.events.join(', ')} · weight {hook.weight}
          {hook.deletePolicies.length > 0 && ` · deleted ${hook.deletePolicies.join(', ')}`}
        </span>
      </div>
      <p className={`mt-1 text-xs ${mutedLook}`}>
        Ran {when(hook.startedAt)} → {when(hook.completedAt)}
        {hook.present === false &&
          ' · the Job is gone (its delete policy removed it); its events remain a while'}
      </p>
      {hook.job && (
        <p className="mt-2 text-sm">
          Job: {hook.job.active} active, {hook.job.succeeded} succeeded, {hook.job.failed} failed
          {hook.job.backoffLimit !== undefined && ` (backoff limit ${hook.job.backoffLimit})`}
          {hook.job.activeDeadlineSeconds !== undefined && `, deadline ${hook.job.activeDeadlineSeconds}s`}
          {hook.job.condition && (
            <>
              {' — '}
              <span
                className={
                  hook.job.condition.type === 'Failed' ? 'font-medium text-red-800 dark:text-red-300' : ''
                }
              >
                {hook.job.condition.type}: {hook.job.condition.reason}
              </span>{' '}
              <span className={mutedLook}>{hook.job.condition.message}</span>
            </>
          )}
        </p>
      )}
      {hook.pods.length > 0 && (
        <div className="mt-2">
          <Table label={`Pods of ${hook.name}`} columns={['Pod', 'Status', 'Restarts', 'Exit code']}>
            {hook.pods.map((pod) => (
              <tr key={pod.name}>
                <td className={cell}>
                  <ObjectLink kind="Pod" namespace={hook.namespace} name={pod.name} />
                </td>
                <td className={cell}>{pod.status}</td>
                <td className={`${cell} tabular-nums`}>{pod.restarts}</td>
                <td className="py-2 tabular-nums">{pod.exitCode ?? '—'}</td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      {failed && newestPod && (
        <div className="mt-2">
          <h4 className="mb-1 text-xs font-semibold">Log of {newestPod.name}</h4>
          <PodLogTail namespace={hook.namespace} pod={newestPod.name} />
        </div>
      )}
      {hook.hookEvents.length > 0 && (
        <div className="mt-2">
          <Table
            label={`Events of ${hook.name}`}
            columns={['Object', 'Reason', 'Message', 'Count', 'Last seen']}
          >
            {hook.hookEvents.map((e) => (
              <tr key={`${e.object}/${e.reason}/${e.lastSeen}`}>
                <td className={`${cell} font-mono text-xs`}>{e.object}</td>
                <td
                  className={`${cell} text-xs ${e.type === 'Warning' ? 'text-red-800 dark:text-red-300' : ''}`}
                >
                  {e.reason}
                </td>
                <td className={`${cell} text-xs`}>{e.message}</td>
                <td className={`${cell} tabular-nums`}>{e.count}</td>
                <td className="py-2 text-xs">{when(e.lastSeen)}</td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      {!hook.readable.events && (
        <p className={`mt-2 text-xs ${mutedLook}`}>
          You may not list events in {hook.namespace}: they are left out.
        </p>
      )}
    </section>
  );
}

/**
 * What the release's hooks did (docs/helm.md#hooks): the rollbacks Helm made after a failed change, and for the
 * revision that explains the state (a rolled-back failure by default) each hook's run, Job, pods, log and events.
 */
export function HooksTab({
  release,
  history,
  revision,
  pick,
}: {
  release: ReleaseRef;
  history: Revision[];
  revision?: number;
  pick: (revision: number) => void;
}) {
  const diagnostics = useQuery({
    queryKey: ['helm', 'hooks', release.namespace, release.name, revision],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/releases/{namespace}/{name}/hooks', {
        params: { namespace: release.namespace, name: release.name },
        query: revision ? { revision } : {},
        signal,
      }),
    refetchInterval: 10_000,
  });
  if (diagnostics.isPending) return <Loading what="the hooks" />;
  if (diagnostics.isError) return <ErrorMessage error={diagnostics.error} what="the hooks" />;
  const answer = diagnostics.data;
  return (
    <div className="flex flex-col gap-4">
      {answer.rollbacks.length > 0 && (
        <section
          aria-label="Rollbacks"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <h3 className="font-semibold">Helm rolled back</h3>
          <ul className="mt-1 flex flex-col gap-1">
            {answer.rollbacks.map((r) => (
              <li key={r.revision}>
                Revision {r.revision} rolled back to {r.to}
                {r.at && ` on ${when(r.at)}`}
                {r.failed ? (
                  <>
                    {' '}
                    after revision {r.failed.revision} failed: <q>{r.failed.description}</q>
                  </>
                ) : (
                  ' (asked for: no failed revision before it)'
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="flex flex-wrap items-end gap-4">
        <RevisionSelect label="Hooks of revision" history={history} value={answer.revision} onChange={pick} />
        <p className="flex items-center gap-2 text-sm">
          <StatusBadge status={answer.status} />
          <span className={mutedLook}>{answer.description}</span>
        </p>
      </div>
      {answer.hooks.length === 0 ? (
        <p className={`text-sm ${mutedLook}`}>Revision {answer.revision}'s chart has no hooks.</p>
      ) : (
        answer.hooks.map((hook) => <HookCard key={`${hook.kind}/${hook.name}`} hook={hook} />)
      )}
    </div>
  );
}
