import type { KubeObject } from '@binnacle/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, post, remove } from '../../api/client.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { nameOf, namespaceOf } from './objects.ts';

interface BulkAction {
  label: string;
  act: 'delete' | 'restart';
  /** What the confirmation says happens to each object. */
  explain: string;
  /** Past tense for the report: "deleted", "restarted". */
  done: string;
  run: (kind: string, o: KubeObject) => Promise<unknown>;
}

/** What happened to one object of a bulk action. */
interface Result {
  object: string;
  error?: string;
}

const restartable = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Rollout']);

const params = (kind: string, o: KubeObject) => ({ kind, namespace: namespaceOf(o) ?? '_', name: nameOf(o) });

const deletion: BulkAction = {
  label: 'Delete',
  act: 'delete',
  explain: 'Deletes each of them; objects they own are removed by the garbage collector.',
  done: 'deleted',
  run: (kind, o) => remove('/api/resources/{kind}/{namespace}/{name}', { params: params(kind, o) }),
};

const restart: BulkAction = {
  label: 'Restart',
  act: 'restart',
  explain: 'Rolls out new pods of each of them, as kubectl rollout restart does.',
  done: 'restarted',
  run: (kind, o) => post('/api/workloads/{kind}/{namespace}/{name}/restart', { params: params(kind, o) }),
};

/** At most this many requests at once: a hundred selected objects must not become a hundred parallel writes. */
const concurrency = 4;

/** Runs the action on every object, each on its own: one refusal does not stop or undo the others. */
async function runAll(action: BulkAction, kind: string, objects: KubeObject[]): Promise<Result[]> {
  const results: Result[] = [];
  const queue = [...objects];
  const worker = async () => {
    for (let o = queue.shift(); o; o = queue.shift()) {
      const object = `${namespaceOf(o) ? `${namespaceOf(o)}/` : ''}${nameOf(o)}`;
      try {
        await action.run(kind, o);
        results.push({ object });
      } catch (error) {
        results.push({
          object,
          error: error instanceof ApiError || error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results.sort((a, b) => a.object.localeCompare(b.object));
}

/**
 * The bar over a table with ticked rows: what is selected, and what can be done to all of it; an action the
 * caller may not take is disabled, its reason said beside it.
 */
export function BulkActions({
  kind,
  objects,
  clear,
  unavailable,
}: {
  kind: string;
  objects: KubeObject[];
  clear: () => void;
  unavailable: (act: BulkAction['act'], kind: string) => string | undefined;
}) {
  const queryClient = useQueryClient();
  // What the dialog asks about is fixed when it opens: the table may lose those rows while it runs.
  const [asking, setAsking] = useState<{ action: BulkAction; objects: KubeObject[] }>();
  const run = useMutation({
    mutationFn: (chosen: { action: BulkAction; objects: KubeObject[] }) =>
      runAll(chosen.action, kind, chosen.objects),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['resources'] });
      void queryClient.invalidateQueries({ queryKey: ['changes'] });
    },
  });
  const actions = restartable.has(kind) ? [restart, deletion] : [deletion];
  const failed = run.data?.filter((r) => r.error) ?? [];
  const close = () => {
    if (run.data && failed.length === 0) clear();
    setAsking(undefined);
  };
  if (objects.length === 0 && !asking) return null;
  const button =
    'rounded-md border border-slate-300 px-2.5 py-1 text-sm hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800';
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border border-teal-200 bg-teal-50 px-3 py-2 text-sm dark:border-teal-900 dark:bg-teal-950/40">
      <span className="mr-2 font-medium">{objects.length} selected</span>
      {actions.map((a) => (
        <button
          key={a.label}
          type="button"
          className={button}
          disabled={unavailable(a.act, kind) !== undefined}
          title={unavailable(a.act, kind)}
          onClick={() => {
            run.reset();
            setAsking({ action: a, objects });
          }}
        >
          {a.label}…
        </button>
      ))}
      <button type="button" className={button} onClick={clear}>
        Clear selection
      </button>
      {[...new Set(actions.map((a) => unavailable(a.act, kind)).filter(Boolean))].map((reason) => (
        <span key={reason} className="basis-full text-xs text-slate-700 dark:text-slate-300">
          {reason}
        </span>
      ))}
      {asking && (
        <ConfirmDialog
          title={`${asking.action.label} ${asking.objects.length} ${kind} ${asking.objects.length === 1 ? 'object' : 'objects'}?`}
          confirm={run.data ? 'Done' : asking.action.label}
          busy={run.isPending}
          onCancel={close}
          onConfirm={() => (run.data ? close() : run.mutate(asking))}
        >
          {run.data ? (
            <div role="status">
              <p>
                {run.data.length - failed.length} of {run.data.length} {asking.action.done}
                {failed.length > 0 ? `; ${failed.length} refused:` : '.'}
              </p>
              <ul className="mt-2 max-h-48 list-disc overflow-auto pl-5">
                {failed.map((r) => (
                  <li key={r.object}>
                    <span className="font-mono text-xs">{r.object}</span>: {r.error}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <>
              <p>{asking.action.explain}</p>
              <ul className="mt-2 max-h-48 list-disc overflow-auto pl-5 font-mono text-xs">
                {asking.objects.map((o) => (
                  <li key={o.metadata?.uid ?? nameOf(o)}>
                    {namespaceOf(o) ? `${namespaceOf(o)}/` : ''}
                    {nameOf(o)}
                  </li>
                ))}
              </ul>
            </>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
