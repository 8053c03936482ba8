import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { Loaded } from '../../ui/states.tsx';
import { RevisionSelect } from './RevisionSelect.tsx';
import type { ReleaseRef, Revision } from './types.ts';
import { UnifiedDiff } from './UnifiedDiff.tsx';

const preLook =
  'max-h-[60vh] overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-950';

/** A text that scrolls inside the page (a manifest, the notes); the keyboard reaches it to scroll. */
export function ScrollingText({ label, text }: { label: string; text: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls; the keyboard must reach it.
    <section tabIndex={0} aria-label={label} className={preLook}>
      <pre className="font-mono text-xs leading-5">{text}</pre>
    </section>
  );
}

/** The rendered manifest of a revision (the newest unless one is picked). */
export function ManifestTab(props: {
  release: ReleaseRef;
  history: Revision[];
  revision?: number;
  pick: (revision: number) => void;
}) {
  const revision = props.revision ?? props.history[0]?.revision;
  const manifest = useQuery({
    queryKey: ['helm', 'manifest', props.release.namespace, props.release.name, revision],
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/releases/{namespace}/{name}/manifest', {
        params: { ...props.release },
        query: { revision },
        signal,
      }),
  });
  return (
    <div className="flex flex-col gap-3">
      <div className="w-80">
        <RevisionSelect label="Revision" history={props.history} value={revision} onChange={props.pick} />
      </div>
      <Loaded query={manifest} what="the manifest">
        {(m) => <ScrollingText label={`Manifest of revision ${m.revision}`} text={m.manifest} />}
      </Loaded>
    </div>
  );
}

/** What changed in the rendered manifest between two revisions (by default the one before the newest and the newest). */
export function DiffTab(props: {
  release: ReleaseRef;
  history: Revision[];
  from?: number;
  to?: number;
  pick: (pair: { from: number; to: number }) => void;
}) {
  const to = props.to ?? props.history[0]?.revision;
  const from = props.from ?? props.history[1]?.revision;
  const diff = useQuery({
    queryKey: ['helm', 'diff', props.release.namespace, props.release.name, from, to],
    enabled: from !== undefined && to !== undefined,
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/releases/{namespace}/{name}/diff', {
        params: { ...props.release },
        query: { revision1: from, revision2: to },
        signal,
      }),
  });
  if (from === undefined || to === undefined)
    return <p className="text-sm">The release has one revision: there is nothing to compare yet.</p>;
  return (
    <div className="flex flex-col gap-3">
      <div className="grid max-w-2xl grid-cols-2 gap-3">
        <RevisionSelect
          label="From"
          history={props.history}
          value={from}
          onChange={(f) => props.pick({ from: f, to })}
        />
        <RevisionSelect
          label="To"
          history={props.history}
          value={to}
          onChange={(t) => props.pick({ from, to: t })}
        />
      </div>
      <Loaded query={diff} what="the diff">
        {(d) => (
          <UnifiedDiff
            diff={d.diff}
            label={`Manifest changes from revision ${d.revision1} to ${d.revision2}`}
            empty={`Revisions ${d.revision1} and ${d.revision2} render the same manifest.`}
          />
        )}
      </Loaded>
    </div>
  );
}
