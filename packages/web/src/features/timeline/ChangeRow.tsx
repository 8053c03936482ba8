import { Link } from '@tanstack/react-router';
import { linkLook } from '../../ui/controls.tsx';
import { justBefore, rightAfter } from '../timetravel/moments.ts';
import { FieldChanges } from './FieldChanges.tsx';
import type { Change } from './use-live-changes.ts';

const badge: Record<string, string> = {
  add: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  update: 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100',
  delete: 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100',
  Warning: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  Normal: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

type Actor = NonNullable<Change['actor']>;

/** How the agent knew who it was: a signed-in person, or nobody signed in (ADR 0072). */
const asWhom: Record<NonNullable<Actor['identity']>, string> = {
  caller: 'signed in; the agent acted as this person',
  agent: "nobody was signed in; the agent's own identity made the change",
};

/**
 * One change: when, what, to which object, by whom; its field diff opens in place. Its checkbox picks it as one
 * end of a comparison (what changed between two entries).
 */
export function ChangeRow({
  change,
  open,
  onToggle,
  picked,
  onPick,
}: {
  change: Change;
  open: boolean;
  onToggle: () => void;
  picked: boolean;
  onPick: (picked: boolean) => void;
}) {
  const time = new Date(change.timestamp);
  const fields = change.diff?.fields ?? [];
  const label = change.source === 'action' ? 'action' : change.eventType;
  const object = `${change.kind} ${change.namespace ? `${change.namespace}/` : ''}${change.name}`;
  return (
    <li
      className={`flex items-start gap-3 px-4 py-2.5 text-sm ${picked ? 'bg-teal-50 dark:bg-teal-950' : ''}`}
    >
      <input
        type="checkbox"
        className="mt-1 h-4 w-4 shrink-0 accent-teal-700"
        aria-label={`Compare from or to: ${label} ${object} at ${time.toLocaleTimeString()}`}
        title="Tick two entries to see what changed between them"
        checked={picked}
        onChange={(event) => onPick(event.target.checked)}
      />
      <div className="min-w-0 flex-1">
        <button
          type="button"
          className="flex w-full items-start gap-3 text-left"
          aria-expanded={open}
          onClick={onToggle}
        >
          <time
            dateTime={change.timestamp}
            className="w-20 shrink-0 pt-0.5 font-mono text-xs text-slate-600 dark:text-slate-400"
            title={time.toISOString()}
          >
            {time.toLocaleTimeString()}
          </time>
          <span
            className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ${badge[change.eventType] ?? badge.Normal}`}
          >
            {label}
          </span>
          <span className="min-w-0 flex-1">
            <span className="font-medium">{change.kind}</span>{' '}
            <span className="font-mono text-xs">
              {change.namespace ? `${change.namespace}/` : ''}
              {change.name}
            </span>
            {change.reason && (
              <span className="ml-2 text-slate-700 dark:text-slate-300">{change.reason}</span>
            )}
            {change.actor && (
              <span className="ml-2 text-slate-700 dark:text-slate-300">
                by <span className="font-medium">{change.actor.user}</span>
                {change.actor.identity === 'agent' && " (the agent's own identity)"}
              </span>
            )}
            <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
              {change.diff?.summary ?? change.message ?? ''}
            </span>
          </span>
        </button>
        {open && (
          <div className="mt-2 ml-23 rounded-md bg-slate-50 p-3 dark:bg-slate-950">
            {change.message && change.message !== change.diff?.summary && (
              <p className="mb-2 text-xs">{change.message}</p>
            )}
            {change.actor && <ActorDetail actor={change.actor} />}
            {change.source !== 'agent' && <ThenLinks change={change} />}
            {fields.length > 0 ? (
              <FieldChanges fields={fields} />
            ) : (
              <p className="text-xs text-slate-600 dark:text-slate-400">
                No field diff recorded for this entry.
              </p>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

/** The entry's kind as the cluster held it just before and right after the change (time travel). */
function ThenLinks({ change }: { change: Change }) {
  const link = (at: string | undefined, text: string) => (
    <Link
      to="/resources/$kind"
      params={{ kind: change.kind }}
      search={{ namespace: change.namespace, at }}
      className={linkLook}
    >
      {text}
    </Link>
  );
  return (
    <p className="mb-2 text-xs">
      {change.kind} objects {link(justBefore(change.timestamp), 'just before')} ·{' '}
      {link(rightAfter(change.timestamp), 'right after')}
    </p>
  );
}

/** Who made an action: the user, how the agent knew, and the groups it acted with. */
function ActorDetail({ actor }: { actor: Actor }) {
  return (
    <p className="mb-2 text-xs">
      By <span className="font-medium">{actor.user}</span>
      {actor.identity && ` (${asWhom[actor.identity]})`}
      {actor.groups?.length ? `; groups: ${actor.groups.join(', ')}` : ''}
    </p>
  );
}
