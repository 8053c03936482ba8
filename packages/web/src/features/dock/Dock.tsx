import { lazy, Suspense, useContext } from 'react';
import { Loading } from '../../ui/states.tsx';
import { LogViewer } from '../logs/LogViewer.tsx';
import { DockResizer, useDockHeight } from './DockResizer.tsx';
import { DockContext, type DockTab } from './use-dock.ts';

// xterm.js is only fetched when someone opens a shell.
const TerminalView = lazy(() =>
  import('../terminal/TerminalView.tsx').then((m) => ({ default: m.TerminalView })),
);

const button =
  'rounded px-2 py-1 text-xs text-slate-700 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800';

function TabBody({ tab }: { tab: DockTab }) {
  if (tab.kind === 'logs') return <LogViewer {...tab.viewer} />;
  return (
    <Suspense fallback={<Loading what="the terminal" />}>
      <TerminalView path={tab.path} query={tab.query} fill />
    </Suspense>
  );
}

/**
 * The bottom panel of logs and shells that stays open while the reader moves between pages: one tab per stream,
 * each kept mounted (and so streaming) while another is shown or the dock is minimised; closing a tab ends its
 * stream (docs/streams.md).
 */
export function Dock() {
  const dock = useContext(DockContext);
  const [height, setHeight] = useDockHeight();
  if (!dock || dock.tabs.length === 0) return null;
  const { tabs, active, minimised } = dock;
  return (
    <section
      aria-label="Dock"
      className="flex shrink-0 flex-col border-t border-slate-300 bg-slate-100 dark:border-slate-700 dark:bg-slate-900"
    >
      {!minimised && <DockResizer height={height} onHeight={setHeight} />}
      <div className="flex items-center gap-1 border-b border-slate-200 px-2 py-1 dark:border-slate-800">
        <ul aria-label="Dock tabs" className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto">
          {tabs.map((tab) => (
            <li
              key={tab.id}
              className={`flex shrink-0 items-center rounded-md border ${
                tab.id === active
                  ? 'border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-950'
                  : 'border-transparent'
              }`}
            >
              <button
                type="button"
                aria-current={tab.id === active}
                className="flex items-center gap-1.5 px-2 py-1 text-xs font-medium"
                onClick={() => {
                  dock.show(tab.id);
                  dock.setMinimised(false);
                }}
              >
                <span aria-hidden="true" className="font-mono text-teal-700 dark:text-teal-400">
                  {tab.kind === 'logs' ? '≡' : '>_'}
                </span>
                {tab.title}
              </button>
              <button
                type="button"
                aria-label={`Close ${tab.title}`}
                className="mr-1 rounded px-1 text-xs text-slate-600 hover:bg-slate-200 dark:text-slate-400 dark:hover:bg-slate-800"
                onClick={() => dock.close(tab.id)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={button}
          aria-expanded={!minimised}
          onClick={() => dock.setMinimised(!minimised)}
        >
          {minimised ? 'Restore' : 'Minimise'}
        </button>
      </div>
      <div hidden={minimised} style={{ height }} className="min-h-0 px-3 py-2">
        {tabs.map((tab) => (
          <section key={tab.id} aria-label={tab.title} hidden={tab.id !== active} className="h-full min-h-0">
            <TabBody tab={tab} />
          </section>
        ))}
      </div>
    </section>
  );
}
