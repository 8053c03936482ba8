import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { Toaster } from '../../ui/toasts.tsx';
import { CommandPalette } from './CommandPalette.tsx';
import { ConnectionBadge } from './ConnectionBadge.tsx';
import { NamespacePicker } from './NamespacePicker.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useCapabilities } from './use-capabilities.ts';

const linkLook = (active: boolean) =>
  `block rounded-md px-3 py-2 text-sm ${
    active
      ? 'bg-teal-50 font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-100'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`;

/** The frame of every page: which cluster and whether it is reachable, the namespace in view, the areas. */
export function Shell() {
  const path = useRouterState({ select: (state) => state.location.pathname });
  const keepNamespace = (prev: { namespace?: string }) => ({ namespace: prev.namespace });
  const capabilities = useCapabilities();
  const info = useQuery({
    queryKey: ['cluster-info'],
    queryFn: ({ signal }) => get('/api/cluster-info', { signal }),
  });
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
        <ul className="flex flex-col gap-0.5 px-2">
          <li>
            <Link to="/" search={keepNamespace} className={linkLook(path === '/')}>
              Dashboard
            </Link>
          </li>
          <li>
            <Link
              to="/resources/$kind"
              params={{ kind: 'pods' }}
              search={keepNamespace}
              className={linkLook(path.startsWith('/resources'))}
            >
              Resources
            </Link>
          </li>
          <li>
            <Link to="/topology" search={keepNamespace} className={linkLook(path.startsWith('/topology'))}>
              Topology
            </Link>
          </li>
          <li>
            <Link to="/timeline" search={keepNamespace} className={linkLook(path.startsWith('/timeline'))}>
              Timeline
            </Link>
          </li>
          <li>
            <Link to="/sessions" search={keepNamespace} className={linkLook(path.startsWith('/sessions'))}>
              Sessions
            </Link>
          </li>
          {capabilities.data?.localTerminal && (
            <li>
              <Link to="/terminal" search={keepNamespace} className={linkLook(path.startsWith('/terminal'))}>
                Terminal
              </Link>
            </li>
          )}
        </ul>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center gap-4 border-b border-slate-200 bg-white px-6 py-3 dark:border-slate-800 dark:bg-slate-900">
          <div className="min-w-0">
            <p className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Cluster</p>
            <p className="truncate font-medium" title={info.data?.server}>
              {info.data ? info.data.cluster : info.isError ? 'unknown' : 'connecting…'}
            </p>
          </div>
          <ConnectionBadge />
          <div className="ml-auto flex items-center gap-3">
            <kbd className="hidden rounded border border-slate-300 px-1.5 py-0.5 text-xs text-slate-600 md:inline dark:border-slate-700 dark:text-slate-400">
              Ctrl K to jump
            </kbd>
            <NamespacePicker />
            <ThemeToggle />
          </div>
        </header>
        {/* Focusable so keyboard users can scroll the page (axe: scrollable-region-focusable). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must take keyboard focus. */}
        <main id="main" tabIndex={0} className="min-h-0 flex-1 overflow-auto px-6 py-5 focus:outline-none">
          <Outlet />
        </main>
        <Toaster />
        <CommandPalette />
      </div>
    </div>
  );
}
