import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { SelectFilter } from '../../ui/SelectFilter.tsx';
import { StreamDot, streamWords } from '../../ui/StreamStatus.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { EmptyOrRefused } from '../shell/AccessNotice.tsx';
import { pods } from '../shell/access.ts';
import { ChangeRow } from './ChangeRow.tsx';
import { ComparePicks } from './ComparePicks.tsx';
import { type Change, useLiveChanges } from './use-live-changes.ts';

export interface TimelineSearch {
  kind?: string;
  name?: string;
  type?: ChangeType;
}
export const changeTypes = ['changes', 'warnings', 'events', 'actions'] as const;
export type ChangeType = (typeof changeTypes)[number];

const ofType: Record<ChangeType, (c: Change) => boolean> = {
  // A span the agent did not watch belongs with the changes: what changed in it is listed at its end.
  changes: (c) => c.source === 'informer' || c.source === 'historical' || c.source === 'agent',
  warnings: (c) => c.eventType === 'Warning',
  events: (c) => c.source === 'k8s_event',
  actions: (c) => c.source === 'action',
};

/** What changed in the cluster, newest first, arriving live; filters live in the URL. */
export function TimelinePage() {
  const search = useSearch({ from: '/timeline' });
  const { changes, stream } = useLiveChanges({
    namespace: search.namespace,
    kind: search.kind,
    name: search.name,
  });
  const [open, setOpen] = useState<number | undefined>();
  // The two ends of a comparison; ticking a third lets go of the first ticked.
  const [picked, setPicked] = useState<readonly Change[]>([]);
  const pick = (change: Change, on: boolean) =>
    setPicked((was) => {
      const others = was.filter((c) => c.seq !== change.seq);
      return on ? [...others, change].slice(-2) : others;
    });
  const setFilter = useSearchPatch<Partial<TimelineSearch>>();
  const rows = (changes.data?.events ?? []).filter((c) => !search.type || ofType[search.type](c));
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <h1 className="mr-auto text-xl font-semibold">Timeline</h1>
        <TextFilter
          label="Kind"
          value={search.kind}
          placeholder="Deployment,Pod"
          onChange={(kind) => setFilter({ kind })}
        />
        <TextFilter
          label="Name"
          value={search.name}
          placeholder="exact name"
          onChange={(name) => setFilter({ name })}
        />
        <SelectFilter
          label="Type"
          all="Everything"
          value={search.type}
          options={[
            ['changes', 'Object changes'],
            ['warnings', 'Warnings'],
            ['events', 'Kubernetes events'],
            ['actions', 'Actions by people'],
          ]}
          onChange={(type) => setFilter({ type })}
        />
        <span
          role="status"
          className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 px-3 py-1 text-xs dark:border-slate-700"
        >
          <StreamDot state={stream} />
          {streamWords[stream]}
        </span>
      </div>
      <ComparePicks picked={picked} namespace={search.namespace} clear={() => setPicked([])} />
      {changes.isPending ? (
        <Loading what="the timeline" />
      ) : changes.isError ? (
        <ErrorMessage error={changes.error} what="the timeline" />
      ) : rows.length === 0 ? (
        <EmptyOrRefused listed={pods} namespace={search.namespace}>
          No changes match. New ones appear here as they happen.
        </EmptyOrRefused>
      ) : (
        <ol
          aria-label="Changes"
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        >
          {rows.map((change) => (
            <ChangeRow
              key={change.seq}
              change={change}
              open={open === change.seq}
              onToggle={() => setOpen(open === change.seq ? undefined : change.seq)}
              picked={picked.some((c) => c.seq === change.seq)}
              onPick={(on) => pick(change, on)}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
