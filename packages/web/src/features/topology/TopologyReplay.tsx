import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { get } from '../../api/client.ts';
import { buttonLook, mutedLook, primaryLook } from '../../ui/controls.tsx';
import { momentText, replaySteps } from '../timetravel/moments.ts';

/** How long each step of a replay stays on screen. */
const stepMs = 1000;
/** Timeline entries read for the moments to step through (the newest first: a busy span loses its start). */
const entriesRead = 1000;

/**
 * Plays the topology from `from` to `to`: one step a second through the moments the timeline recorded changes
 * at (at most 20), each step the graph as it was then (`go` moves the page's `at`), with pause and single steps.
 */
export function TopologyReplay(props: {
  namespace?: string;
  from: string;
  to: string;
  at: string;
  go: (at: string) => void;
  close: () => void;
}) {
  const { namespace, from, to, at, go } = props;
  const entries = useQuery({
    queryKey: ['replay', namespace, from],
    queryFn: ({ signal }) =>
      get('/api/changes', { query: { namespace, since: from, limit: entriesRead }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const steps = useMemo(
    () =>
      replaySteps(
        from,
        to,
        (entries.data?.events ?? []).filter((e) => e.source === 'informer').map((e) => e.timestamp),
      ),
    [from, to, entries.data],
  );
  const shown = Date.parse(at);
  const index = Math.max(
    0,
    steps.findLastIndex((step) => Date.parse(step) <= shown),
  );
  const last = steps.length - 1;
  const [playing, setPlaying] = useState(false);
  // The page's navigate is new on each render; the timer must not start over with it.
  const goTo = useRef(go);
  goTo.current = go;
  useEffect(() => {
    if (!playing) return;
    if (index >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => goTo.current(steps[index + 1] as string), stepMs);
    return () => clearTimeout(timer);
  }, [playing, index, last, steps]);
  const play = () => {
    // From the end, a replay starts over.
    if (index >= last) go(steps[0] as string);
    setPlaying(true);
  };
  const step = (to: number) => {
    setPlaying(false);
    go(steps[to] as string);
  };
  return (
    <section
      aria-label="Replay"
      className="flex w-full flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-white px-3 py-2 text-sm dark:border-amber-800 dark:bg-slate-900"
    >
      <button type="button" className={primaryLook} onClick={playing ? () => setPlaying(false) : play}>
        {playing ? 'Pause' : index >= last ? 'Play again' : 'Play'}
      </button>
      <button type="button" className={buttonLook} disabled={index === 0} onClick={() => step(index - 1)}>
        Step back
      </button>
      <button type="button" className={buttonLook} disabled={index >= last} onClick={() => step(index + 1)}>
        Step forward
      </button>
      <p role="status" className="font-medium tabular-nums">
        Step {index + 1} of {steps.length}
        <span className={`font-normal ${mutedLook}`}>
          {' '}
          · replaying {momentText(from)} → {momentText(to)}
          {entries.isPending ? ' (reading the moments of change…)' : ''}
        </span>
      </p>
      <button type="button" className={`ml-auto ${buttonLook}`} onClick={props.close}>
        Stop replay
      </button>
    </section>
  );
}
