import type { KubeObject } from '@binnacle/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useRef, useState } from 'react';
import { stringify } from 'yaml';
import { put, remove } from '../../api/client.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { TrafficImpact } from '../netpol/TrafficImpact.tsx';
import { useWhyNot } from '../shell/use-why-not.ts';
import { DraftEditor, StepButtons } from './EditFlow.tsx';
import { RefusedEditImpact, SelectionImpact } from './SelectionImpact.tsx';

// CodeMirror is only fetched when someone reviews a change.
const YamlDiff = lazy(() => import('./CodeMirror.tsx').then((m) => ({ default: m.YamlDiff })));

/** The object as a person reads it: without managedFields, which is bookkeeping of the API server. */
export function readableYaml(resource: KubeObject): string {
  const { managedFields: _, ...metadata } = (resource.metadata ?? {}) as Record<string, unknown>;
  return stringify({ ...resource, metadata });
}

/**
 * The object as it is edited: without status (the API server ignores it on apply) but with its
 * resourceVersion, so an apply over a change someone else made meanwhile is a 409, not a silent overwrite.
 */
function editableYaml(resource: KubeObject): string {
  const { status: _, ...rest } = resource as KubeObject & { status?: unknown };
  return readableYaml(rest);
}

const button =
  'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800';

/**
 * What a review shows of the dry run: the YAML diff, or which objects gain or lose pods (docs/web.md); for a
 * NetworkPolicy also what it does to the traffic observed (docs/network-policies.md).
 */
const reviewTabs = [
  { id: 'diff', label: 'Changes' },
  { id: 'selection', label: 'Selection impact' },
] as const;
const trafficTab = { id: 'traffic', label: 'Traffic impact' } as const;
type ReviewTab = (typeof reviewTabs)[number]['id'] | typeof trafficTab.id;

/** Editing starts from `start`; the text being edited lives in a ref, so typing does not re-create the editor. */
type Mode = { at: 'view' } | { at: 'edit'; start: string } | { at: 'review'; after: string };

/**
 * The object's YAML: read, edit in CodeMirror, review the server-side-apply dry run as a diff, apply; or delete.
 * Every change is made by the agent as the caller, so their RBAC decides, and is recorded on the timeline.
 */
export function YamlCard({
  resource,
  params,
  readOnly,
}: {
  resource: KubeObject;
  params: { kind: string; namespace: string; name: string };
  /** The object's last state after it was deleted: shown, not edited (an edit would create it again). */
  readOnly?: boolean;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setMode] = useState<Mode>({ at: 'view' });
  const mode: Mode = readOnly ? { at: 'view' } : editing;
  const [original, setOriginal] = useState('');
  const draft = useRef('');
  const [deleting, setDeleting] = useState(false);
  const [reviewing, setReviewing] = useState<ReviewTab>('diff');
  const scope = params.namespace === '_' ? undefined : params.namespace;
  const dryRun = useMutation({
    mutationFn: (text: string) =>
      put('/api/resources/{kind}/{namespace}/{name}', { params, query: { dryRun: 'true' }, body: text }),
    onSuccess: (answer) => {
      setReviewing('diff');
      setMode({ at: 'review', after: editableYaml(answer.resource as KubeObject) });
    },
  });
  const apply = useMutation({
    mutationFn: (text: string) => put('/api/resources/{kind}/{namespace}/{name}', { params, body: text }),
    onSuccess: () => {
      setMode({ at: 'view' });
      void queryClient.invalidateQueries({ queryKey: ['resource'] });
      void queryClient.invalidateQueries({ queryKey: ['changes'] });
    },
  });
  const deletion = useMutation({
    mutationFn: () => remove('/api/resources/{kind}/{namespace}/{name}', { params }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['resources'] });
      void navigate({ to: '/resources/$kind', params: { kind: params.kind }, search: { namespace: scope } });
    },
  });
  const startEditing = () => {
    const text = editableYaml(resource);
    setOriginal(text);
    draft.current = text;
    apply.reset();
    dryRun.reset();
    setMode({ at: 'edit', start: text });
  };
  const whyNot = useWhyNot({ kind: resource.kind, apiVersion: resource.apiVersion, namespace: scope });
  const [noEdit, noDelete] = [whyNot('update'), whyNot('delete')];
  const actions =
    mode.at === 'view' && !readOnly ? (
      <div className="flex gap-2">
        <button
          type="button"
          className={button}
          disabled={Boolean(noEdit)}
          title={noEdit}
          onClick={startEditing}
        >
          Edit
        </button>
        <button
          type="button"
          className={button}
          disabled={Boolean(noDelete)}
          title={noDelete}
          onClick={() => setDeleting(true)}
        >
          Delete
        </button>
      </div>
    ) : undefined;
  const refusals = readOnly ? [] : [...new Set([noEdit, noDelete].filter(Boolean))];
  return (
    <Card title="YAML" aside={actions}>
      {mode.at === 'view' &&
        refusals.map((reason) => (
          <p key={reason} className="mb-3 text-sm text-slate-700 dark:text-slate-300">
            {reason}
          </p>
        ))}
      {mode.at === 'view' && (
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling YAML must take keyboard focus.
          tabIndex={0}
          aria-label="Object YAML"
          className="max-h-[60vh] overflow-auto rounded bg-slate-50 p-3 dark:bg-slate-950"
        >
          <pre className="font-mono text-xs leading-5">{readableYaml(resource)}</pre>
        </section>
      )}
      {mode.at === 'edit' && (
        <div className="flex flex-col gap-3">
          <DraftEditor initial={mode.start} label={`YAML of ${resource.kind} ${params.name}`} draft={draft} />
          <StepButtons
            step={dryRun}
            failure={{ what: 'the dry run', verb: 'run' }}
            next={{
              label: 'Review changes',
              busy: 'Asking the API server…',
              run: () => dryRun.mutate(draft.current),
            }}
            back={{ label: 'Cancel', run: () => setMode({ at: 'view' }) }}
          />
          {dryRun.isError && <RefusedEditImpact error={dryRun.error} yaml={dryRun.variables} />}
        </div>
      )}
      {mode.at === 'review' && (
        <div className="flex flex-col gap-3">
          <p className="text-sm">
            {mode.after === original
              ? 'The API server would store the object unchanged.'
              : 'What the API server would store (server-side apply, dry run): now on the left, after on the right.'}
          </p>
          <Tabs
            label="Review"
            tabs={resource.kind === 'NetworkPolicy' ? [...reviewTabs, trafficTab] : [...reviewTabs]}
            current={reviewing}
            choose={setReviewing}
          >
            {reviewing === 'diff' ? (
              <Suspense fallback={<Loading what="the diff" />}>
                <YamlDiff before={original} after={mode.after} />
              </Suspense>
            ) : reviewing === 'traffic' ? (
              <TrafficImpact change={{ yaml: draft.current }} />
            ) : (
              <SelectionImpact yaml={draft.current} />
            )}
          </Tabs>
          <StepButtons
            step={apply}
            failure={{ what: 'the change', verb: 'apply' }}
            next={{ label: 'Apply', busy: 'Applying…', run: () => apply.mutate(draft.current) }}
            back={{ label: 'Back to editing', run: () => setMode({ at: 'edit', start: draft.current }) }}
          />
        </div>
      )}
      {apply.isSuccess && mode.at === 'view' && (
        <p role="status" className="mt-3 text-sm text-emerald-800 dark:text-emerald-300">
          Applied.{' '}
          <Link
            to="/timeline"
            search={{ namespace: scope, kind: resource.kind, name: params.name }}
            className="text-teal-800 underline dark:text-teal-300"
          >
            See the change on the timeline
          </Link>
        </p>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${resource.kind} ${params.name}?`}
          confirm="Delete"
          busy={deletion.isPending}
          onCancel={() => {
            deletion.reset();
            setDeleting(false);
          }}
          onConfirm={() => deletion.mutate()}
        >
          <p>
            Deletes {resource.kind} {scope ? `${scope}/` : ''}
            {params.name}; objects it owns are removed by the garbage collector.
          </p>
          {resource.kind === 'NetworkPolicy' && (
            <TrafficImpact change={{ delete: [`${scope}/${params.name}`] }} />
          )}
          {deletion.isError && <ErrorMessage error={deletion.error} what="it" verb="delete" />}
        </ConfirmDialog>
      )}
    </Card>
  );
}
