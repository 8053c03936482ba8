import { useState } from 'react';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Empty } from '../../ui/states.tsx';
import type { Dashboard } from './DashboardPage.tsx';

type Line = Dashboard['recentEvents'][number];
type Routine = Extract<Line, { routine: true }>;
type Event = Exclude<Line, Routine>;

const typeLook = (type: string) =>
  type === 'Warning'
    ? 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100'
    : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300';

function EventLine({ e }: { e: Event }) {
  const o = e.involvedObject;
  return (
    <li className="flex gap-3 py-2">
      <span className={`mt-0.5 h-fit shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ${typeLook(e.type)}`}>
        {e.type}
      </span>
      <div className="min-w-0">
        <p>
          <span className="font-medium">{e.reason}</span>{' '}
          <span className="text-xs text-slate-600 dark:text-slate-400">{o.kind}</span>{' '}
          {o.name && o.kind ? <ObjectLink kind={o.kind} namespace={o.namespace} name={o.name} /> : null}
          {e.count > 1 && <span className="text-xs text-slate-600 dark:text-slate-400"> ×{e.count}</span>}
        </p>
        <p className="truncate text-xs text-slate-600 dark:text-slate-400" title={e.message}>
          {e.source}: {e.message}
        </p>
      </div>
    </li>
  );
}

/** A source's routine events as one line, opened on request. */
function RoutineLine({ fold }: { fold: Routine }) {
  const [open, setOpen] = useState(false);
  const [first, second] = fold.reasons;
  const reasons = `${first ?? ''}${second ? `, ${second}` : ''}${fold.reasons.length > 2 ? '…' : ''}`;
  return (
    <li className="py-2">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-3 text-left hover:underline"
      >
        <span
          aria-hidden="true"
          className={`w-4 text-slate-600 transition-transform ${open ? 'rotate-90' : ''}`}
        >
          ▸
        </span>
        <span className="text-slate-700 dark:text-slate-300">
          {fold.source}: {fold.count} routine events ({reasons})
        </span>
      </button>
      {open && (
        <ul
          className="ml-7 divide-y divide-slate-100 dark:divide-slate-800"
          aria-label={`${fold.source} routine events`}
        >
          {fold.events.map((e) => (
            <EventLine
              key={`${e.involvedObject.namespace}/${e.involvedObject.name}/${e.reason}/${e.lastSeen}`}
              e={e}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The newest events; a source's routine Normal events fold into one line (warnings never do). */
export function RecentEvents({ events }: { events: Line[] }) {
  if (events.length === 0) return <Empty>No events yet.</Empty>;
  return (
    <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
      {events.map((line) =>
        'routine' in line ? (
          <RoutineLine key={`routine/${line.source}`} fold={line} />
        ) : (
          <EventLine
            key={`${line.involvedObject.kind}/${line.involvedObject.namespace}/${line.involvedObject.name}/${line.reason}/${line.lastSeen}`}
            e={line}
          />
        ),
      )}
    </ul>
  );
}
