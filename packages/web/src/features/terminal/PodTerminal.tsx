import { lazy, Suspense, useMemo, useState } from 'react';
import { Loading } from '../../ui/states.tsx';

// xterm.js is only fetched when someone opens a shell.
const TerminalView = lazy(() => import('./TerminalView.tsx').then((m) => ({ default: m.TerminalView })));

/** A shell in one of the pod's containers, opened on request (each open is an exec session on the agent). */
export function PodTerminal({
  namespace,
  name,
  containers,
}: {
  namespace: string;
  name: string;
  containers: string[];
}) {
  const [container, setContainer] = useState(containers[0]);
  const [open, setOpen] = useState(false);
  const query = useMemo(() => ({ container }), [container]);
  const path = `/api/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/exec`;
  const control =
    'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';
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
        <button type="button" className={control} onClick={() => setOpen(!open)}>
          {open ? 'Close the shell' : 'Open a shell'}
        </button>
      </div>
      {open && (
        <Suspense fallback={<Loading what="the terminal" />}>
          <TerminalView path={path} query={query} />
        </Suspense>
      )}
    </div>
  );
}
