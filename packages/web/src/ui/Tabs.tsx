import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface Tab<T extends string> {
  id: T;
  label: string;
}

/**
 * Tabs as ARIA describes them: ←/→ (Home/End) move between the tabs and open the one reached, Tab goes on into
 * the open panel. The page keeps which tab is open (in its URL); only that panel is rendered.
 */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: Tab<T>[];
  current: T;
  choose: (id: T) => void;
  children: ReactNode;
}) {
  const { tabs, current, choose } = props;
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKey = (event: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === current);
    const to = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    const next = to === undefined ? undefined : tabs[to];
    if (!next) return;
    event.preventDefault();
    choose(next.id);
    list.current?.querySelector<HTMLElement>(`[data-tab="${next.id}"]`)?.focus();
  };
  return (
    <div className="flex flex-col">
      <div
        ref={list}
        role="tablist"
        aria-label={props.label}
        onKeyDown={onKey}
        className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
      >
        {tabs.map((tab) => {
          const selected = tab.id === current;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`${id}-${tab.id}`}
              data-tab={tab.id}
              aria-selected={selected}
              aria-controls={`${id}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => choose(tab.id)}
              className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm ${
                selected
                  ? 'border-teal-700 font-medium text-teal-900 dark:border-teal-400 dark:text-teal-100'
                  : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${current}`} className="pt-4">
        {props.children}
      </div>
    </div>
  );
}
