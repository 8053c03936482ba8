import { lazy, Suspense, useMemo, useState } from 'react';
import { Loading } from '../../ui/states.tsx';
import { useDock } from '../dock/use-dock.ts';

// xterm.js is only fetched when someone opens a shell.
const TerminalView = lazy(() => import('./TerminalView.tsx').then((m) => ({ default: m.TerminalView })));

/** Shells opened in the dock so far: each gets a tab of its own. */
let docked = 0;

const control =
  'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800';

/**
 * A shell opened on request over one of the agent's terminal WebSockets: a pod's exec (with a container picker
 * when it has several) or the agent host's local terminal. Each open is a session the agent counts.
 */
export function ShellOpener({
  path,
  containers = [],
  unavailable,
  dockTitle,
}: {
  path: string;
  containers?: string[];
  /** Why the caller may not open one: the button is disabled and the reason said. */
  unavailable?: string;
  /** Offers to open the shell in the dock, as a tab of this name. */
  dockTitle?: string;
}) {
  const [container, setContainer] = useState(containers[0]);
  const [open, setOpen] = useState(false);
  const dock = useDock();
  const openInDock = () => {
    // Each press is a new shell, as each press of "Open a shell" is.
    docked += 1;
    dock?.open({
      id: `shell:${docked}`,
      title: `${dockTitle}${containers.length > 1 ? ` (${container})` : ''}`,
      kind: 'shell',
      path,
      query,
    });
  };
  const query = useMemo(() => (container ? { container } : {}), [container]);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-sm">
        {containers.length > 1 && (
          <label className="flex items-center gap-1">
            Container
            <select className={control} value={container} onChange={(e) => setContainer(e.target.value)}>
              {containers.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
        <button
          type="button"
          className={control}
          disabled={Boolean(unavailable)}
          title={unavailable}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Close the shell' : 'Open a shell'}
        </button>
        {dock && dockTitle && (
          <button type="button" className={control} disabled={Boolean(unavailable)} onClick={openInDock}>
            Open in dock
          </button>
        )}
      </div>
      {unavailable && <p className="text-sm">{unavailable}</p>}
      {open && !unavailable && (
        <Suspense fallback={<Loading what="the terminal" />}>
          <TerminalView path={path} query={query} />
        </Suspense>
      )}
    </div>
  );
}
