import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { get } from '../../api/client.ts';
import { streamWords } from '../../ui/StreamStatus.tsx';
import { ErrorMessage } from '../../ui/states.tsx';
import { useDock } from '../dock/use-dock.ts';
import { Highlighted } from './Highlighted.tsx';
import { StructuredControls } from './StructuredControls.tsx';
import { StructuredTable } from './StructuredTable.tsx';
import { type LogLine, type LogRoute, useLogStream } from './use-log-stream.ts';
import { useStructured } from './use-structured.ts';

/** A pod whose containers' previous runs can be read: how often each has restarted (none: no previous run). */
export interface PreviousRuns {
  namespace: string;
  pod: string;
  restarts: Record<string, number>;
}

/**
 * The log of a container's previous run, read at once (it is finished): only asked for when the container has
 * restarted, since the API server keeps no log of a run that never ended.
 */
function usePreviousLog(runs: PreviousRuns | undefined, container: string | undefined, wanted: boolean) {
  const restarted = Boolean(runs && container && (runs.restarts[container] ?? 0) > 0);
  const query = useQuery({
    queryKey: ['previous-log', runs?.namespace, runs?.pod, container],
    enabled: wanted && restarted,
    queryFn: ({ signal }) =>
      get('/api/pods/{namespace}/{name}/logs', {
        params: { namespace: runs?.namespace ?? '', name: runs?.pod ?? '' },
        query: { container, previous: 'true', tail: 2000 },
        signal,
      }),
  });
  const lines: LogLine[] = (query.data?.lines ?? []).map((l) => ({
    ...l,
    pod: runs?.pod ?? '',
    container: container ?? '',
  }));
  return { restarted, query, lines };
}

const stateLabel = { ...streamWords, open: 'Streaming', ended: 'Ended' } as const;

const download = (name: string, lines: LogLine[]) => {
  const text = lines.map((l) => `${l.timestamp ?? ''} ${l.line}`.trim()).join('\n');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
  link.download = `${name}.log`;
  link.click();
  URL.revokeObjectURL(link.href);
};

export interface LogViewerProps {
  route: LogRoute;
  name: string;
  containers: string[];
  /** The container shown first (default: the first). */
  container?: string;
  multiPod?: boolean;
  /** A pod's page: offers the log of each container's previous run. */
  previousRuns?: PreviousRuns;
  /** Shown in the dock: fills its panel and offers no "Open in dock". */
  docked?: boolean;
}

/**
 * A pod's or workload's log as it is written: follow (stick to the bottom) or pause, search with highlights,
 * container choice, timestamps, wrapping, download of what the page holds, and, for JSON or logfmt lines, a
 * structured view with level and field filters (docs/streams.md).
 */
export function LogViewer(props: LogViewerProps) {
  const [container, setContainer] = useState(props.container ?? props.containers[0]);
  const dock = useDock();
  const [previous, setPrevious] = useState(false);
  const earlier = usePreviousLog(props.previousRuns, container, previous);
  const [follow, setFollow] = useState(true);
  const [search, setSearch] = useState('');
  const [timestamps, setTimestamps] = useState(true);
  const [wrap, setWrap] = useState(false);
  const { lines, state, notice } = useLogStream({ route: props.route, container, tail: 200 });
  const [shown, setShown] = useState<LogLine[]>([]);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    if (follow) setShown(lines);
  }, [follow, lines]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the shown lines change.
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [shown, follow]);
  const source = previous ? earlier.lines : shown;
  const structured = useStructured(source);
  const visible = source.filter((l) => (!search || l.line.includes(search)) && structured.matches(l));
  const previousState = !earlier.restarted
    ? `${container} has not restarted: there is no previous run`
    : earlier.query.isPending
      ? 'Loading the previous run…'
      : earlier.query.isError
        ? 'The previous run could not be read'
        : `Previous run of ${container}`;
  const control =
    'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';
  return (
    <div className={`flex flex-col gap-2 ${props.docked ? 'h-full min-h-0' : ''}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {props.containers.length > 1 && (
          <label className="flex items-center gap-1">
            Container
            <select className={control} value={container} onChange={(e) => setContainer(e.target.value)}>
              {props.containers.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
        {props.previousRuns && (
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={previous} onChange={(e) => setPrevious(e.target.checked)} />
            Previous run
          </label>
        )}
        {!previous && (
          <button type="button" className={control} aria-pressed={!follow} onClick={() => setFollow(!follow)}>
            {follow ? 'Pause' : `Resume (${lines.length - shown.length} new)`}
          </button>
        )}
        <input
          aria-label="Search the log"
          placeholder="Search"
          className={`${control} w-48`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={timestamps} onChange={(e) => setTimestamps(e.target.checked)} />
          Timestamps
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} />
          Wrap
        </label>
        {(structured.detected || structured.on) && (
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={structured.on}
              onChange={(e) => structured.setView(e.target.checked)}
            />
            Structured ({structured.formats.join(', ') || 'none'})
          </label>
        )}
        <button
          type="button"
          className={control}
          onClick={() => download(previous ? `${props.name}-previous` : props.name, source)}
        >
          Download
        </button>
        {dock && !props.docked && (
          <button
            type="button"
            className={control}
            onClick={() =>
              dock.open({
                id: `logs:${JSON.stringify(props.route)}:${container}`,
                title: `Logs: ${props.name}${props.containers.length > 1 ? ` (${container})` : ''}`,
                kind: 'logs',
                viewer: { ...props, container, docked: true },
              })
            }
          >
            Open in dock
          </button>
        )}
        <span role="status" className="ml-auto text-xs text-slate-600 dark:text-slate-400">
          {previous ? previousState : stateLabel[state]} · {visible.length}
          {visible.length === source.length ? '' : ` of ${source.length}`} lines
          {search ? ` matching “${search}”` : ''}
        </span>
      </div>
      {(structured.detected || structured.on) && <StructuredControls structured={structured} />}
      {!previous && notice && <p className="text-xs text-amber-800 dark:text-amber-300">{notice}</p>}
      {previous && earlier.query.isError && (
        <ErrorMessage error={earlier.query.error} what={`the log of ${container}'s previous run`} />
      )}
      {previous && earlier.query.isSuccess && earlier.lines.length === 0 && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          The previous run of {container} wrote nothing.
        </p>
      )}
      <section
        ref={box}
        aria-label="Log lines"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling log must take keyboard focus.
        tabIndex={0}
        className={`${props.docked ? 'min-h-0 flex-1' : 'h-[60vh]'} overflow-auto rounded-md bg-slate-950 font-mono text-xs leading-5 text-slate-100 ${structured.on ? '' : 'p-3'}`}
      >
        {structured.on ? (
          <StructuredTable
            lines={visible}
            columns={structured.columns}
            timestamps={timestamps}
            multiPod={props.multiPod}
            wrap={wrap}
            search={search}
          />
        ) : (
          visible.map((l, index) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are only appended; an index names a line.
              key={index}
              className={wrap ? 'whitespace-pre-wrap break-all' : 'whitespace-pre'}
            >
              {timestamps && l.timestamp && <span className="mr-2 text-slate-400">{l.timestamp}</span>}
              {props.multiPod && <span className="mr-2 text-teal-300">{l.pod}</span>}
              <Highlighted text={l.line} needle={search} />
            </div>
          ))
        )}
      </section>
    </div>
  );
}
