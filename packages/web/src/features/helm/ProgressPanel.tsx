import { type ReactNode, useEffect, useRef } from 'react';
import { rowButtonLook } from '../../ui/forms.tsx';
import { ErrorMessage } from '../../ui/states.tsx';
import type { ReleaseSummary } from './types.ts';
import type { HelmRun, useHelmStream } from './use-helm-stream.ts';

const stateWords: Record<HelmRun['state'], { text: string; look: string }> = {
  running: { text: 'Running', look: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200' },
  succeeded: {
    text: 'Succeeded',
    look: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  },
  failed: { text: 'Failed', look: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200' },
  cancelled: { text: 'Cancelled', look: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300' },
};

/** The phases in the order they were first reached (helm may come back to one, e.g. waiting). */
const phasesOf = (run: HelmRun) => [...new Set(run.lines.map((l) => l.phase))];

/** A step of the phase strip: done, the one running now, or where the run stopped. */
function Phase({ phase, at, run }: { phase: string; at: 'done' | 'current'; run: HelmRun }) {
  const now = at === 'current' && run.state === 'running';
  const stopped = at === 'current' && run.state !== 'running' && run.state !== 'succeeded';
  const look = now
    ? 'border-sky-600 bg-sky-50 font-semibold text-sky-900 dark:border-sky-400 dark:bg-sky-950 dark:text-sky-100'
    : stopped
      ? 'border-red-600 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100'
      : 'border-slate-300 text-slate-700 dark:border-slate-700 dark:text-slate-300';
  return (
    <li
      aria-current={now ? 'step' : undefined}
      className={`flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs ${look}`}
    >
      <span aria-hidden="true">{now ? '●' : stopped ? '✕' : '✓'}</span>
      {phase}
    </li>
  );
}

/**
 * What helm is doing, as it does it: the phases reached (the current one marked), every progress line, and how
 * it ended. While it runs, Cancel closes the stream (the agent then stops helm); afterwards Close hides it.
 */
export function ProgressPanel({
  stream,
  done,
}: {
  stream: ReturnType<typeof useHelmStream>;
  /** What to offer once it succeeded (a link to the release). */
  done?: (release: ReleaseSummary | undefined) => ReactNode;
}) {
  return stream.run ? (
    <RunPanel
      run={stream.run}
      onCancel={stream.cancel}
      onClose={stream.dismiss}
      done={done?.(stream.run.release)}
    />
  ) : null;
}

function RunPanel({
  run,
  onCancel,
  onClose,
  done,
}: {
  run: HelmRun;
  onCancel: () => void;
  onClose: () => void;
  done?: ReactNode;
}) {
  const log = useRef<HTMLOListElement>(null);
  const panel = useRef<HTMLElement>(null);
  // A run started from further down the page (a form, a dialog) shows where its progress is.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: every new line scrolls the log to its end.
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [run.lines.length]);
  const phases = phasesOf(run);
  const state = stateWords[run.state];
  return (
    <section
      ref={panel}
      aria-label={`Progress: ${run.title}`}
      className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
        <h2 className="text-sm font-semibold">{run.title}</h2>
        <span role="status" className={`rounded-full px-2 py-0.5 text-xs font-medium ${state.look}`}>
          {state.text}
          {run.state === 'running' && <span aria-hidden="true">…</span>}
        </span>
        <button
          type="button"
          className={`ml-auto ${rowButtonLook}`}
          onClick={run.state === 'running' ? onCancel : onClose}
        >
          {run.state === 'running' ? 'Cancel' : 'Close'}
        </button>
      </div>
      <div className="flex flex-col gap-3 p-4">
        <ol aria-label="Phases" className="flex flex-wrap items-center gap-2">
          {phases.map((phase) => (
            <Phase
              key={phase}
              phase={phase}
              run={run}
              at={phase === run.lines.at(-1)?.phase ? 'current' : 'done'}
            />
          ))}
          {run.state === 'succeeded' && (
            <li className="rounded-full border border-emerald-600 bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-900 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-100">
              ✓ done
            </li>
          )}
          {phases.length === 0 && run.state === 'running' && (
            <li className="text-xs text-slate-600 dark:text-slate-400">Waiting for helm to start…</li>
          )}
        </ol>
        {run.lines.length > 0 && (
          <ol
            ref={log}
            aria-label="Progress lines"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls; the keyboard must reach it.
            tabIndex={0}
            className="max-h-56 overflow-auto rounded-md border border-slate-200 bg-slate-50 py-1 font-mono text-xs leading-5 dark:border-slate-800 dark:bg-slate-950"
          >
            {run.lines.map((line, index) => {
              const last = index === run.lines.length - 1 && run.state === 'running';
              return (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines are only ever appended.
                  key={index}
                  className={`grid grid-cols-[6.5rem_1fr] gap-2 px-3 ${last ? 'bg-sky-100 dark:bg-sky-950' : ''}`}
                >
                  <span className="text-slate-600 dark:text-slate-400">{line.phase}</span>
                  <span className="break-words">
                    {line.message}
                    {line.detail && (
                      <span className="text-slate-600 dark:text-slate-400"> — {line.detail}</span>
                    )}
                  </span>
                </li>
              );
            })}
          </ol>
        )}
        {run.state === 'succeeded' && (
          <p className="text-sm text-emerald-800 dark:text-emerald-300">
            {run.release
              ? `Revision ${run.release.revision} of ${run.release.namespace}/${run.release.name} is ${run.release.status}.`
              : 'Done.'}{' '}
            {done}
          </p>
        )}
        {run.state === 'failed' && run.error && (
          <ErrorMessage error={run.error} what="the change" verb="make" />
        )}
        {run.state === 'cancelled' && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Cancelled: the agent stops helm, which marks the release failed if it had begun changing it; roll
            back (or, for a first install, uninstall) to recover.
          </p>
        )}
      </div>
    </section>
  );
}
