import { useQuery } from '@tanstack/react-query';
import { type Answer, get } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { ErrorMessage } from '../../ui/states.tsx';
import type { DrainChoices } from './DrainForm.tsx';

type Fit = Answer<'/api/nodes/drain-fit'>;
type FitPod = Fit['pods'][number];

const outcomeWords: Record<FitPod['outcome'], string> = {
  placed: 'moves to',
  pending: 'would stay Pending',
  blocked: 'stays: a PodDisruptionBudget blocks it',
  'not-recreated': 'goes; nothing recreates it',
  refused: 'stops the drain',
  skipped: 'left on the node',
};
const outcomeLook: Record<FitPod['outcome'], string> = {
  placed: 'text-emerald-800 dark:text-emerald-300',
  pending: 'text-red-800 dark:text-red-300',
  blocked: 'text-amber-800 dark:text-amber-300',
  'not-recreated': 'text-amber-800 dark:text-amber-300',
  refused: 'text-red-800 dark:text-red-300',
  skipped: 'text-slate-600 dark:text-slate-400',
};
const verdictLook = { ok: outcomeLook.placed, waits: outcomeLook.blocked, blocks: outcomeLook.pending };

function PodLine({ pod }: { pod: FitPod }) {
  return (
    <li className="py-1">
      <span className="font-mono text-xs">
        {pod.namespace}/{pod.name}
      </span>{' '}
      <span className={outcomeLook[pod.outcome]}>{outcomeWords[pod.outcome]}</span>
      {pod.target && <span className="font-mono text-xs"> {pod.target}</span>}
      {pod.reason && <span className={`block text-xs ${mutedLook}`}>{pod.reason}</span>}
    </li>
  );
}

/** The order the nodes would be drained in, batch by batch, or why there is none. */
function Plan({ fit }: { fit: Fit }) {
  const { sequence } = fit;
  if (!sequence.possible)
    // The pods above say each why; the reason the agent gives is for callers without the list beside it.
    return <p className="mt-2">No order of drains keeps every pod running.</p>;
  return (
    <>
      <p className="mt-2 font-medium">Plan</p>
      <ol className="mt-2 list-decimal pl-5" aria-label="Drain plan">
        {sequence.batches.map((batch) => (
          <li key={batch.nodes.join(',')}>
            drain {batch.nodes.join(', ')} ({batch.evictions} eviction{batch.evictions === 1 ? '' : 's'}
            {batch.waitsFor ? `; one at a time as ${batch.waitsFor.join(', ')} allows` : ''})
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * What draining the node would do, asked of the agent before the person confirms (ADR 0123): where each evicted
 * pod would run again or why it would stay Pending, the PodDisruptionBudgets that block, and the plan.
 */
export function DrainFit({ node, choices, lead }: { node: string; choices: DrainChoices; lead?: string }) {
  const { ignoreDaemonSets, deleteEmptyDirData, force } = choices;
  const fit = useQuery({
    queryKey: ['drain-fit', node, ignoreDaemonSets, deleteEmptyDirData, force],
    // Asked afresh each time a dialog opens, never an earlier answer, and again while it stays open: pods come and
    // go between two dialogs and while someone reads one (the answer is computed from the agent's cache, cheaply).
    staleTime: 0,
    gcTime: 0,
    refetchInterval: 5_000,
    queryFn: ({ signal }) =>
      get('/api/nodes/drain-fit', {
        query: {
          nodes: node,
          ignoreDaemonSets: String(ignoreDaemonSets),
          deleteEmptyDirData: String(deleteEmptyDirData),
          force: String(force),
        },
        signal,
      }),
  });
  return (
    <section
      aria-label="Drain fit"
      className="mt-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
    >
      <h3 className="font-medium">Would its pods fit elsewhere?</h3>
      {lead && <p className={`text-xs ${mutedLook}`}>{lead}</p>}
      {fit.isPending && <p className={`mt-1 ${mutedLook}`}>Checking the other nodes…</p>}
      {fit.isError && <ErrorMessage error={fit.error} what="the drain fit" />}
      {fit.data && (
        <>
          <p className={`mt-1 ${fit.data.fits ? outcomeLook.placed : outcomeLook.pending}`}>
            {fit.data.summary}
          </p>
          {fit.data.pods.length > 0 && (
            // Focusable, so that a keyboard can scroll a long list.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable)
            <ul className="mt-2 max-h-56 overflow-auto" aria-label="Pods of the drain" tabIndex={0}>
              {fit.data.pods.map((p) => (
                <PodLine key={`${p.namespace}/${p.name}`} pod={p} />
              ))}
            </ul>
          )}
          {fit.data.budgets.length > 0 && (
            <ul className="mt-2" aria-label="PodDisruptionBudgets">
              {fit.data.budgets.map((b) => (
                <li key={`${b.namespace}/${b.name}`}>
                  PodDisruptionBudget{' '}
                  <span className="font-mono text-xs">
                    {b.namespace}/{b.name}
                  </span>{' '}
                  <span className={verdictLook[b.verdict]}>{b.verdict}</span>
                  <span className={`block text-xs ${mutedLook}`}>{b.reason}</span>
                </li>
              ))}
            </ul>
          )}
          <Plan fit={fit.data} />
        </>
      )}
    </section>
  );
}
