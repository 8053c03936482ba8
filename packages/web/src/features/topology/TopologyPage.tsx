import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useMemo } from 'react';
import { linkLook } from '../../ui/controls.tsx';
import { streamWords } from '../../ui/StreamStatus.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { EmptyOrRefused } from '../shell/AccessNotice.tsx';
import { pods } from '../shell/access.ts';
import { TimeTravelBar } from '../timetravel/TimeTravelBar.tsx';
import {
  type Grouping,
  groupings,
  type Health,
  healths,
  kindChoices,
  shownGraph,
  type Topology,
} from './graph.ts';
import { TopologyReplay } from './TopologyReplay.tsx';
import { usePlacedLayout } from './use-placed-layout.ts';
import { type TopologyView, useTopology } from './use-topology.ts';

// React Flow and its styles are fetched when the topology is opened; the layout runs in a Web Worker.
const TopologyCanvas = lazy(() =>
  import('./TopologyCanvas.tsx').then((m) => ({ default: m.TopologyCanvas })),
);

export interface TopologySearch {
  /** Adds an edge per pair of observed flows of the last 5 minutes (the agent's traffic view). */
  traffic?: true;
  group?: Grouping;
  /** Kinds left out, comma-separated. */
  hide?: string;
  /** Health states shown, comma-separated; all when absent. */
  health?: string;
  /** Pod groups shown as their pods, comma-separated ids. */
  expand?: string;
  /** A past moment (RFC 3339): the graph as the cluster was then, not followed live (time travel). */
  at?: string;
  /** A replay's first and last moments: `at` steps from one to the other. */
  replayFrom?: string;
  replayTo?: string;
}

/** What a whole cluster too big to draw was reduced to (ADR 0057). */
const reducedTo: Record<NonNullable<Topology['levelOfDetail']>, string> = {
  'pod-groups': 'pods are grouped by owner, each group counting its pods',
  kinds: 'each namespace counts its objects per kind',
  namespaces: 'each namespace is one node here',
};

const listOf = (value?: string) => (value ? value.split(',').filter(Boolean) : []);

const control =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';

/** Workloads and what connects them, live: grouped by namespace or application, filtered by kind and health. */
export function TopologyPage() {
  const search = useSearch({ from: '/topology' });
  const navigate = useNavigate();
  const grouping = search.group ?? 'namespace';
  const hidden = listOf(search.hide);
  const health = listOf(search.health) as Health[];
  const { at } = search;
  // Flows are not kept: the past is drawn without traffic.
  const view: TopologyView = search.traffic && !at ? 'traffic' : 'resources';
  const { topology, stream, error } = useTopology(search.namespace, search.expand, view, at);
  const graph = useMemo(
    () =>
      topology &&
      shownGraph(
        topology,
        { hiddenKinds: listOf(search.hide), health: listOf(search.health) as Health[] },
        grouping,
      ),
    [topology, search.hide, search.health, grouping],
  );
  // What is asked for: a layout of another namespace (or other expanded groups) is never shown for this one.
  const scope = `${search.namespace ?? ''}|${search.expand ?? ''}|${view}`;
  const placed = usePlacedLayout(graph, scope);
  const setSearch = (change: Partial<TopologySearch>) =>
    void navigate({ to: '/topology', search: (was) => ({ ...was, ...change }) });
  const kinds = useMemo(() => kindChoices(topology), [topology]);
  const toggle = (list: string[], value: string) => {
    const next = list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
    return next.length > 0 ? next.join(',') : undefined;
  };
  const dark = document.documentElement.classList.contains('dark');
  return (
    <div className="flex h-[calc(100vh-7rem)] flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        {/* The status on the title's line: every pixel of height the header takes, the fitted graph loses. */}
        <div className="mr-auto flex min-w-0 items-baseline gap-3">
          <h1 className="text-xl font-semibold">
            Topology{search.namespace ? ` · ${search.namespace}` : ''}
          </h1>
          <p role="status" className="text-xs text-slate-600 dark:text-slate-400">
            {stream === 'past'
              ? 'As it was, not updated'
              : view === 'traffic'
                ? stream === 'open'
                  ? 'Flows of the last 5 minutes, read every 10 s'
                  : 'Reading again…'
                : streamWords[stream]}
            {graph && ` · ${graph.nodes.length} objects, ${graph.edges.length} connections`}
          </p>
        </div>
        {search.expand && (
          <button type="button" className={control} onClick={() => setSearch({ expand: undefined })}>
            Group the pods again ({listOf(search.expand).length} shown one by one)
          </button>
        )}
        <label className="flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            checked={view === 'traffic'}
            disabled={at !== undefined}
            onChange={(e) => setSearch({ traffic: e.target.checked || undefined })}
          />
          Traffic of the last 5 minutes{at ? ' (live only)' : ''}
        </label>
        <label className="flex items-center gap-1 text-sm">
          Group by
          <select
            className={control}
            value={grouping}
            onChange={(e) => setSearch({ group: e.target.value as Grouping })}
          >
            {groupings.map((g) => (
              <option key={g} value={g}>
                {g === 'app' ? 'application' : g}
              </option>
            ))}
          </select>
        </label>
        <TimeTravelBar
          at={at}
          onChange={(moment) =>
            setSearch(moment ? { at: moment } : { at: undefined, replayFrom: undefined, replayTo: undefined })
          }
        />
        {at && search.replayFrom && search.replayTo && (
          <TopologyReplay
            namespace={search.namespace}
            from={search.replayFrom}
            to={search.replayTo}
            at={at}
            go={(moment) => setSearch({ at: moment })}
            close={() => setSearch({ replayFrom: undefined, replayTo: undefined })}
          />
        )}
      </div>
      <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <legend className="sr-only">Filters</legend>
        {kinds.map(({ kind, label, count }) => (
          <label key={kind} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={!hidden.includes(kind)}
              onChange={() => setSearch({ hide: toggle(hidden, kind) })}
            />
            {label} <span className="text-slate-600 dark:text-slate-400">{count}</span>
          </label>
        ))}
        <span className="mx-1 h-4 w-px bg-slate-300 dark:bg-slate-700" />
        {healths.map((h) => (
          <label key={h} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={health.length === 0 || health.includes(h)}
              onChange={() => setSearch({ health: toggle(health.length === 0 ? healths : health, h) })}
            />
            {h}
          </label>
        ))}
      </fieldset>
      {topology?.levelOfDetail && (
        <p role="note" className="text-sm text-slate-700 dark:text-slate-300">
          The whole cluster is about {topology.estimatedNodes?.toLocaleString()} objects, too many to draw one
          by one: {reducedTo[topology.levelOfDetail]}
          {topology.leftOutKinds?.length ? `; ${topology.leftOutKinds.join(', ')} left out` : ''}.{' '}
          <strong>Open</strong> a namespace to see each of its objects.
        </p>
      )}
      <section
        aria-label={at ? 'Topology graph as it was' : 'Topology graph'}
        className={`min-h-0 flex-1 rounded-lg border bg-white dark:bg-slate-900 ${
          at ? 'border-2 border-amber-400 dark:border-amber-700' : 'border-slate-200 dark:border-slate-800'
        }`}
      >
        {error ? (
          <div className="p-4">
            <ErrorMessage error={error} what="the topology as it was" />
          </div>
        ) : !topology ? (
          <Loading what="the topology" />
        ) : graph && graph.nodes.length === 0 ? (
          <EmptyOrRefused listed={pods} namespace={search.namespace}>
            Nothing to draw: no objects here pass the filters.
          </EmptyOrRefused>
        ) : !graph || !placed ? (
          <Loading what={`the layout of ${graph?.nodes.length ?? 0} objects`} />
        ) : (
          <Suspense fallback={<Loading what="the graph view" />}>
            {/* A new scope mounts a new canvas, which fits its view to the new graph. */}
            <TopologyCanvas
              key={scope}
              topology={topology}
              graph={graph}
              layout={placed}
              dark={dark}
              at={at}
            />
          </Suspense>
        )}
      </section>
      {view === 'traffic' && (
        <p className="text-xs">
          Each colored edge is a pair that exchanged flows; the{' '}
          {/* Underlined: a link inside a sentence must not be told apart by its colour alone. */}
          <Link
            to="/traffic"
            search={(was) => ({ namespace: was.namespace })}
            className={`${linkLook} underline`}
          >
            traffic page
          </Link>{' '}
          follows them live, with their counts.
        </p>
      )}
      {topology && topology.warnings.length > 0 && (
        <p className="text-xs text-amber-800 dark:text-amber-300">{topology.warnings.join(' · ')}</p>
      )}
    </div>
  );
}
