import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { type Answer, get } from '../../api/client.ts';
import { buttonLook, mutedLook, primaryLook } from '../../ui/controls.tsx';
import { ago } from '../../ui/time.ts';
import { fromLocal, localValue, momentText } from './moments.ts';

type KeptWindow = Answer<'/api/timetravel'>;

/** How long the slider waits after the last move before the page asks for that moment. */
const settleMs = 300;

/**
 * The time control of the pages that can show the cluster as it was (docs/time-travel.md): live, it is one
 * button; opened or in the past, a slider over the kept window and a time field, and in the past a banner that
 * says which moment is shown with one click back to live. `at` is an RFC 3339 time, or undefined for live.
 */
export function TimeTravelBar(props: {
  at?: string;
  /** The page's kind: its kept window bounds the control (each kind's history begins when it synced). */
  kind?: string;
  onChange: (at: string | undefined) => void;
}) {
  const { at, kind, onChange } = props;
  const [open, setOpen] = useState(false);
  const [kept, setKept] = useState<KeptWindow>();
  const [failure, setFailure] = useState<string>();
  const [dragged, setDragged] = useState<number>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const showing = open || at !== undefined;
  useEffect(() => {
    if (!showing) return;
    const stop = new AbortController();
    get('/api/timetravel', { query: { kind }, signal: stop.signal }).then(setKept, (error: unknown) => {
      if (!stop.signal.aborted) setFailure(error instanceof Error ? error.message : String(error));
    });
    return () => stop.abort();
  }, [showing, kind]);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!showing)
    return (
      <button type="button" className={buttonLook} onClick={() => setOpen(true)}>
        History…
      </button>
    );

  const oldest = kept?.oldest ? Date.parse(kept.oldest) : undefined;
  const newest = kept?.newest ? Date.parse(kept.newest) : Date.now();
  const shown = dragged ?? (at ? Date.parse(at) : newest);
  const go = (ms: number) => {
    clearTimeout(timer.current);
    setDragged(ms);
    timer.current = setTimeout(() => {
      setDragged(undefined);
      onChange(new Date(ms).toISOString());
    }, settleMs);
  };
  const live = () => {
    clearTimeout(timer.current);
    setDragged(undefined);
    setOpen(false);
    onChange(undefined);
  };
  return (
    <section
      aria-label="Time travel"
      className={`flex w-full flex-col gap-2 rounded-md border px-3 py-2 text-sm ${
        at
          ? 'border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50'
          : 'border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900'
      }`}
    >
      {/* What is shown and the ways out on top; the controls that move through the kept window beneath. */}
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="mr-auto font-medium">
          {at ? (
            <>
              As of {momentText(at)}{' '}
              <span className="font-normal">({ago(at)}) — changes since are not shown</span>
            </>
          ) : (
            'Live — drag back to see the cluster as it was'
          )}
        </p>
        {failure && <span role="alert">The kept window could not be read: {failure}</span>}
        {at && (
          <Link
            to="/timeline/between"
            search={(was: { namespace?: string }) => ({ namespace: was.namespace, from: at })}
            className={`${buttonLook} bg-white dark:bg-slate-900`}
          >
            What changed since then
          </Link>
        )}
        <button type="button" className={at ? primaryLook : buttonLook} onClick={live}>
          {at ? 'Back to live' : 'Close'}
        </button>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {oldest !== undefined && (
          <input
            type="range"
            aria-label="Moment"
            className="min-w-48 flex-1 accent-teal-700"
            min={oldest}
            max={newest}
            step={1000}
            value={Math.min(Math.max(shown, oldest), newest)}
            aria-valuetext={momentText(new Date(shown).toISOString())}
            onChange={(event) => go(Number(event.target.value))}
          />
        )}
        <label className="flex items-center gap-1.5">
          <span className={at ? '' : mutedLook}>Time</span>
          <input
            type="datetime-local"
            step={1}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
            value={localValue(shown)}
            min={oldest === undefined ? undefined : localValue(oldest)}
            max={localValue(newest)}
            onChange={(event) => {
              const ms = fromLocal(event.target.value);
              if (!Number.isNaN(ms)) onChange(new Date(ms).toISOString());
            }}
          />
        </label>
        {oldest !== undefined && (
          <span className={at ? '' : mutedLook}>kept since {momentText(new Date(oldest).toISOString())}</span>
        )}
      </div>
    </section>
  );
}
