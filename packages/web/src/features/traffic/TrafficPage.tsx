import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { get } from '../../api/client.ts';
import type { StreamState } from '../../api/events.ts';
import { mutedLook, panelLook } from '../../ui/controls.tsx';
import { StreamDot, streamWords } from '../../ui/StreamStatus.tsx';
import { Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { FlowsTable } from './FlowsTable.tsx';
import { NoSource } from './NoSource.tsx';
import { ProposePolicy } from './ProposePolicy.tsx';
import { SourcesBar, sourceTitle } from './SourcesBar.tsx';
import { trafficWindows, windowWords } from './search.ts';
import { MapLegend, TrafficMap } from './TrafficMap.tsx';
import { type FlowView, useFlowStream } from './use-flow-stream.ts';

const control =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';

/** Whether the map follows the agent right now, in a word and a dot. */
function LiveIndicator({ connection, view }: { connection: StreamState; view: FlowView }) {
  return (
    <span role="status" className={`flex items-center gap-1.5 text-xs ${mutedLook}`}>
      <StreamDot state={connection} />
      {streamWords[connection]}
      {view.state === 'flows' &&
        ` · ${view.pairs.length} pair${view.pairs.length === 1 ? '' : 's'} from ${sourceTitle[view.source]} over the last ${view.windowMs / 60_000} min`}
    </span>
  );
}

/**
 * Who talks to whom in the cluster, live: the traffic source in use and the ones detected, a map of the flows
 * between workloads and services, and the same pairs as a sortable table.
 */
export function TrafficPage() {
  const search = useSearch({ from: '/traffic' });
  const navigate = useNavigate();
  const since = search.since ?? '5m';
  const sources = useQuery({
    queryKey: ['traffic', 'sources'],
    queryFn: ({ signal }) => get('/api/traffic/sources', { signal }),
  });
  // Each choice of source opens the stream again, so that it follows the new one.
  const [choices, setChoices] = useState(0);
  const { view, connection } = useFlowStream(search.namespace, since, choices);
  const [selected, setSelected] = useState<string>();
  const pick = (id: string) => setSelected((was) => (was === id ? undefined : id));
  const pairs = view.state === 'flows' ? view.pairs : [];
  const withBytes = pairs.some((p) => p.bytes !== undefined);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Traffic{search.namespace ? ` · ${search.namespace}` : ''}</h1>
        <LiveIndicator connection={connection} view={view} />
        <label className="ml-auto flex items-center gap-1 text-sm">
          Window
          <select
            className={control}
            value={since}
            onChange={(e) =>
              void navigate({
                to: '.',
                search: (was) => ({ ...was, since: trafficWindows.find((w) => w === e.target.value) }),
              })
            }
          >
            {trafficWindows.map((w) => (
              <option key={w} value={w}>
                last {windowWords(w)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {sources.isError ? (
        <ErrorMessage error={sources.error} what="the traffic sources" />
      ) : (
        sources.data && <SourcesBar sources={sources.data} onChosen={() => setChoices((n) => n + 1)} />
      )}
      {view.state === 'absent' ? (
        <NoSource reason={view.reason} sources={sources.data} />
      ) : view.state === 'waiting' ? (
        <Loading what="the flows" />
      ) : (
        <>
          {view.trouble && (
            <p role="alert" className="text-sm text-amber-800 dark:text-amber-300">
              {view.trouble}. The agent tries again; the numbers below may be behind.
            </p>
          )}
          <section
            aria-label="Traffic map"
            className="overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
          >
            {pairs.length === 0 ? (
              <Empty>
                No flows in the last {windowWords(since)}
                {search.namespace ? ` with an end in ${search.namespace}` : ''}.
              </Empty>
            ) : (
              <TrafficMap
                pairs={pairs}
                scope={`${search.namespace ?? ''}|${since}`}
                selected={selected}
                onSelect={pick}
              />
            )}
          </section>
          <MapLegend volume={withBytes ? 'bytes' : 'flows'} />
          <ProposePolicy namespace={search.namespace} since={since} />
          {pairs.length > 0 && (
            <div className={`${panelLook} overflow-x-auto`}>
              <FlowsTable pairs={pairs} selected={selected} onSelect={pick} />
            </div>
          )}
        </>
      )}
    </div>
  );
}
