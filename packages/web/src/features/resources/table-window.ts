import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, get } from '../../api/client.ts';
import { subscribe } from '../../api/events.ts';
import {
  applyPatch,
  nextWindow,
  type TableQuery,
  type TableWindow,
  viewOf,
  windowRows,
} from './table-patch.ts';

export interface LiveWindow {
  window?: TableWindow;
  /** The kind and query (without offset and limit) the window answers: see `viewOf`. */
  view?: string;
  /** The stream is down: the rows shown are the last known, and it is reconnecting. */
  stale: boolean;
  /** Why the agent could not give a window (refused query, kind not readable); the rows shown stay. */
  error?: string;
  /** The agent refused the table itself (403 for the caller, 400 for the query): retrying will not help. */
  refused?: ApiError;
}

/**
 * A live window of a kind's table: the stream's first `window`, then its patches. A new query (scrolling to
 * other rows, another sort or filter) opens a new stream; while one is down the last rows stay, marked stale.
 * A stream cannot say why it was refused (EventSource reads no body), so a drop asks the same table once by
 * GET: a 4xx answer is the refusal to show, anything else is a connection to wait for.
 */
export function useTableWindow(kind: string, query: TableQuery): LiveWindow {
  const [live, setLive] = useState<LiveWindow>({ stale: false });
  const key = JSON.stringify(query);
  useEffect(() => {
    const { offset, limit, ...rest } = JSON.parse(key) as TableQuery;
    const view = viewOf(kind, rest);
    // The past does not change: one answer, no stream.
    if (rest.at) return pastWindow(kind, { ...rest, offset, limit }, view, setLive);
    const asked = { ...rest, offset: String(offset), limit: String(limit) };
    const probe = new AbortController();
    setLive((prev) => (prev.refused ? { ...prev, refused: undefined } : prev));
    const askWhy = () =>
      get('/api/tables/{kind}', {
        params: { kind },
        query: { ...rest, limit: 1 },
        signal: probe.signal,
      }).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500)
            setLive((prev) => ({ ...prev, refused: error }));
        },
      );
    const unsubscribe = subscribe(
      '/api/tables/{kind}/stream',
      { params: { kind }, query: asked },
      {
        onEvent: (event) =>
          setLive((prev) => {
            if (event.event === 'window') return { window: event.data, view, stale: false };
            if (event.event === 'patch')
              return prev.window && prev.view === view
                ? { window: applyPatch(prev.window, event.data), view, stale: false }
                : prev;
            return { ...prev, error: event.data.error };
          }),
        onState: (state) => {
          if (state === 'reconnecting') void askWhy();
          setLive((prev) => ({
            ...prev,
            stale: state === 'reconnecting',
            refused: state === 'open' ? undefined : prev.refused,
          }));
        },
      },
      ['window', 'patch', 'error'],
    );
    return () => {
      probe.abort();
      unsubscribe();
    };
  }, [kind, key]);
  return live;
}

/** A window of the table as it was at `query.at`, asked once; its refusal (410 outside the window) shows as such. */
function pastWindow(
  kind: string,
  query: TableQuery,
  view: string,
  setLive: (update: (prev: LiveWindow) => LiveWindow) => void,
): () => void {
  const stop = new AbortController();
  get('/api/tables/{kind}', { params: { kind }, query: { ...query }, signal: stop.signal }).then(
    (window) => setLive(() => ({ window, view, stale: false })),
    (error: unknown) => {
      if (stop.signal.aborted) return;
      setLive((prev) =>
        error instanceof ApiError ? { ...prev, refused: error } : { ...prev, error: String(error) },
      );
    },
  );
  return () => stop.abort();
}

/** Rows in view beyond the window asked (a scrollbar dragged far): asked once the view has stayed this long. */
const settleMs = 150;

/**
 * The window of a table to ask for (`nextWindow`), and the callback a table calls with the rows it shows.
 * Another view (kind, filter, sort) starts at the top.
 */
export function useWindowOffset(
  view: string,
): [{ offset: number; limit: number }, (first: number, last: number, total: number) => void] {
  const [asked, setAsked] = useState({ view, offset: 0 });
  const offset = asked.view === view ? asked.offset : 0;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onRange = useCallback(
    (first: number, last: number, total: number) => {
      clearTimeout(timer.current);
      const next = nextWindow(offset, first, last, total);
      if (!next) return;
      const ask = () => setAsked({ view, offset: next.offset });
      if (next.now) ask();
      else timer.current = setTimeout(ask, settleMs);
    },
    [view, offset],
  );
  return [{ offset, limit: windowRows }, onRange];
}
