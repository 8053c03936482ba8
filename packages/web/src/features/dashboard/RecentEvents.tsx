import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Empty } from '../../ui/states.tsx';
import type { Dashboard } from './DashboardPage.tsx';

export function RecentEvents({ events }: { events: Dashboard['recentEvents'] }) {
  if (events.length === 0) return <Empty>No events yet.</Empty>;
  return (
    <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
      {events.map((e) => {
        const o = e.involvedObject;
        return (
          <li
            key={`${o.kind}/${o.namespace}/${o.name}/${e.reason}/${e.lastSeen}`}
            className="flex gap-3 py-2"
          >
            <span
              className={`mt-0.5 h-fit shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ${
                e.type === 'Warning'
                  ? 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100'
                  : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
              }`}
            >
              {e.type}
            </span>
            <div className="min-w-0">
              <p>
                <span className="font-medium">{e.reason}</span>{' '}
                <span className="text-xs text-slate-600 dark:text-slate-400">{o.kind}</span>{' '}
                {o.name && o.kind ? <ObjectLink kind={o.kind} namespace={o.namespace} name={o.name} /> : null}
                {e.count > 1 && (
                  <span className="text-xs text-slate-600 dark:text-slate-400"> ×{e.count}</span>
                )}
              </p>
              <p className="truncate text-xs text-slate-600 dark:text-slate-400" title={e.message}>
                {e.message}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
