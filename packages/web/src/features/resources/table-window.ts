import type { TableWindowPatch } from '@binnacle/common/tables';
import { useEffect, useState } from 'react';
import { subscribe } from '../../api/events.ts';
import { applyPatch, type TableQuery, type TableWindow, viewOf } from './table-patch.ts';

export interface LiveWindow {
  window?: TableWindow;
  /** The kind and query (without offset and limit) the window answers: see `viewOf`. */
  view?: string;
  /** The stream is down: the rows shown are the last known, and it is reconnecting. */
  stale: boolean;
  /** Why the agent could not give a window (refused query, kind not readable); the rows shown stay. */
  error?: string;
}

/**
 * A live window of a kind's table: the stream's first `window`, then its patches. A new query (scrolling to
 * other rows, another sort or filter) opens a new stream; while one is down the last rows stay, marked stale.
 */
export function useTableWindow(kind: string, query: TableQuery): LiveWindow {
  const [live, setLive] = useState<LiveWindow>({ stale: false });
  const key = JSON.stringify(query);
  useEffect(() => {
    const { offset, limit, ...rest } = JSON.parse(key) as TableQuery;
    const view = viewOf(kind, rest);
    return subscribe(
      `/api/tables/${encodeURIComponent(kind)}/stream`,
      { ...rest, offset: String(offset), limit: String(limit) },
      {
        onEvent: (type, data) =>
          setLive((prev) => {
            if (type === 'window') return { window: data as TableWindow, view, stale: false };
            if (type === 'patch' && prev.window && prev.view === view)
              return { window: applyPatch(prev.window, data as TableWindowPatch), view, stale: false };
            if (type === 'error') return { ...prev, error: (data as { error: string }).error };
            return prev;
          }),
        onState: (state) => setLive((prev) => ({ ...prev, stale: state === 'reconnecting' })),
      },
      ['window', 'patch', 'error'],
    );
  }, [kind, key]);
  return live;
}
