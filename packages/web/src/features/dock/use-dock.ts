import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { LogViewerProps } from '../logs/LogViewer.tsx';

/** What a dock tab shows: a log viewer, or a shell over a terminal WebSocket. */
export type DockTab = { id: string; title: string } & (
  | { kind: 'logs'; viewer: LogViewerProps }
  | { kind: 'shell'; path: string; query: Record<string, string | undefined> }
);

export interface Dock {
  tabs: DockTab[];
  active?: string;
  minimised: boolean;
  /** Opens a tab, or shows the one with the same id, and brings the dock up. */
  open: (tab: DockTab) => void;
  close: (id: string) => void;
  show: (id: string) => void;
  setMinimised: (minimised: boolean) => void;
}

export const DockContext = createContext<Dock | undefined>(undefined);

/** The dock of the app's frame, for pages that open tabs in it; undefined outside the agent's frame. */
export const useDock = () => useContext(DockContext);

/**
 * The dock's tabs, held by the app's frame above the router's outlet, so a page change leaves them and their
 * streams open (docs/adr/0118-structured-logs-and-dock.md).
 */
export function useDockState(): Dock {
  const [tabs, setTabs] = useState<DockTab[]>([]);
  const [active, setActive] = useState<string>();
  const [minimised, setMinimised] = useState(false);
  const open = useCallback((tab: DockTab) => {
    setTabs((was) => (was.some((t) => t.id === tab.id) ? was : [...was, tab]));
    setActive(tab.id);
    setMinimised(false);
  }, []);
  const close = useCallback(
    (id: string) => {
      const index = tabs.findIndex((t) => t.id === id);
      const left = tabs.filter((t) => t.id !== id);
      setTabs(left);
      // The neighbour takes the closed tab's place, as in a browser.
      if (active === id) setActive(left[Math.min(index, left.length - 1)]?.id);
    },
    [tabs, active],
  );
  return useMemo(
    () => ({ tabs, active, minimised, open, close, show: setActive, setMinimised }),
    [tabs, active, minimised, open, close],
  );
}
