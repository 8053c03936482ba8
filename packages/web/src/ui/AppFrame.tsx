import type { ReactNode } from 'react';
import { Toaster } from './toasts.tsx';

/** How a sidebar entry looks, marked when its area is open. */
export const navLinkLook = (active: boolean) =>
  `block rounded-md px-3 py-2 text-sm ${
    active
      ? 'bg-teal-50 font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-100'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`;

/**
 * The frame of every signed-in page, the agent's and the hub's alike: the sidebar with its areas, a header
 * (what is in view and the controls for it), and the page in a scrolling main region.
 */
export function AppFrame({
  areas,
  header,
  overlays,
  dock,
  children,
}: {
  /** The sidebar's entries: `<li>`s with links. */
  areas: ReactNode;
  header: ReactNode;
  /** Dialogs that open over every page (the command palette). */
  overlays?: ReactNode;
  /** A panel under the page that page changes leave open (the agent's dock of logs and shells). */
  dock?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex h-full bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      <nav
        aria-label="Areas"
        className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="flex items-center gap-2 px-4 py-4 text-lg font-semibold tracking-tight">
          <span
            aria-hidden="true"
            className="inline-block h-6 w-6 rounded-full bg-teal-700 text-center text-sm leading-6 text-white"
          >
            ◆
          </span>
          Binnacle
        </div>
        <ul className="flex flex-col gap-0.5 px-2">{areas}</ul>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center gap-4 border-b border-slate-200 bg-white px-6 py-3 dark:border-slate-800 dark:bg-slate-900">
          {header}
        </header>
        {/* Focusable so keyboard users can scroll the page (axe: scrollable-region-focusable). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must take keyboard focus. */}
        <main id="main" tabIndex={0} className="min-h-0 flex-1 overflow-auto px-6 py-5 focus:outline-none">
          {children}
        </main>
        {dock}
        <Toaster />
        {overlays}
      </div>
    </div>
  );
}
