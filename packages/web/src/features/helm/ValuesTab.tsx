import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { stringify } from 'yaml';
import { get, post, put } from '../../api/client.ts';
import { buttonLook, Checkbox } from '../../ui/controls.tsx';
import { Loaded } from '../../ui/states.tsx';
import { toastError } from '../../ui/toasts.tsx';
import { DraftEditor, StepButtons } from '../editor/EditFlow.tsx';
import { ScrollingText } from './ManifestTab.tsx';
import type { ReleaseRef } from './types.ts';
import { UnifiedDiff } from './UnifiedDiff.tsx';

const asYaml = (values: Record<string, unknown>) =>
  Object.keys(values).length === 0 ? '' : stringify(values);

type Mode = { at: 'view' } | { at: 'edit'; start: string } | { at: 'preview'; diff: string };

/**
 * The values the release was installed or upgraded with (user-supplied; with the chart's defaults on request).
 * Edit them in the YAML editor, preview what helm would render differently (a server-side dry run), apply.
 */
export function ValuesTab({ release }: { release: ReleaseRef }) {
  const queryClient = useQueryClient();
  const [all, setAll] = useState(false);
  const [mode, setMode] = useState<Mode>({ at: 'view' });
  const draft = useRef('');
  const params = { ...release };
  const values = useQuery({
    queryKey: ['helm', 'values', release.namespace, release.name, all],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/releases/{namespace}/{name}/values', {
        params,
        query: all ? { all: 'true' } : {},
        signal,
      }),
  });
  const preview = useMutation({
    mutationFn: (text: string) =>
      post('/api/pkgmgr/releases/{namespace}/{name}/values/preview', { params, body: { values: text } }),
    onSuccess: (answer) => setMode({ at: 'preview', diff: answer.manifestDiff }),
  });
  const apply = useMutation({
    mutationFn: (text: string) =>
      put('/api/pkgmgr/releases/{namespace}/{name}/values', { params, body: { values: text } }),
    onSuccess: () => {
      setMode({ at: 'view' });
      void queryClient.invalidateQueries({ queryKey: ['helm'] });
    },
    onError: (error) => toastError('Applying the values failed', error),
  });
  const edit = (start: string) => {
    draft.current = start;
    preview.reset();
    apply.reset();
    setMode({ at: 'edit', start });
  };
  return (
    <div className="flex flex-col gap-3">
      {mode.at === 'view' && (
        <>
          <div className="flex flex-wrap items-center gap-4">
            <button
              type="button"
              className={buttonLook}
              disabled={!values.data}
              onClick={() => edit(asYaml(values.data?.userSupplied ?? {}))}
            >
              Edit values
            </button>
            <Checkbox label={"Show with the chart's defaults"} checked={all} onChange={setAll} />
          </div>
          <Loaded query={values} what="the values">
            {(v) => {
              const text = asYaml(all ? (v.computed ?? v.userSupplied) : v.userSupplied);
              return text ? (
                <ScrollingText
                  label={
                    all
                      ? `Computed values of revision ${v.revision}`
                      : `User-supplied values of revision ${v.revision}`
                  }
                  text={text}
                />
              ) : (
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  No user-supplied values: the chart's defaults apply.
                </p>
              );
            }}
          </Loaded>
          {apply.isSuccess && (
            <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
              {apply.data.message}
            </p>
          )}
        </>
      )}
      {mode.at === 'edit' && (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            These values replace the user-supplied ones; keys left out fall back to the chart's defaults.
          </p>
          {/* An empty release's values start as one line: the editor keeps room to type. */}
          <div className="[&_.cm-content]:min-h-40">
            <DraftEditor
              initial={mode.start}
              label={`Values of release ${release.namespace}/${release.name}`}
              draft={draft}
            />
          </div>
          <StepButtons
            step={preview}
            failure={{ what: 'the change', verb: 'preview' }}
            next={{
              label: 'Preview changes',
              busy: 'Asking helm for a dry run…',
              run: () => preview.mutate(draft.current),
            }}
            back={{ label: 'Cancel', run: () => setMode({ at: 'view' }) }}
          />
        </>
      )}
      {mode.at === 'preview' && (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            What helm would render differently with these values (an upgrade dry run against the API server;
            nothing is applied yet):
          </p>
          <UnifiedDiff
            diff={mode.diff}
            label="Manifest changes of the new values"
            empty="The new values render the same manifest."
          />
          <StepButtons
            step={apply}
            failure={{ what: 'the values', verb: 'apply' }}
            next={{
              label: 'Apply',
              busy: 'Applying (helm waits for the objects)…',
              run: () => apply.mutate(draft.current),
            }}
            back={{ label: 'Back to editing', run: () => edit(draft.current) }}
          />
        </>
      )}
    </div>
  );
}
