import { Link } from '@tanstack/react-router';
import { buttonLook, mutedLook, primaryLook } from '../../ui/controls.tsx';
import { justBefore, momentText, rightAfter } from '../timetravel/moments.ts';
import type { Change } from './use-live-changes.ts';

const entryText = (change: Change) =>
  `${momentText(change.timestamp)} (${change.kind} ${change.name} ${change.source === 'action' ? 'action' : change.eventType})`;

/**
 * The entries ticked on the timeline as the ends of a comparison, and the link to what changed between them: from
 * just before the earlier one's change to right after the later one's, or to now while only one is ticked.
 */
export function ComparePicks({
  picked,
  namespace,
  clear,
}: {
  picked: readonly Change[];
  namespace?: string;
  clear: () => void;
}) {
  // Timestamps have whole seconds: two changes of one second keep the order they were recorded in.
  const [first, last] = [...picked].sort(
    (a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.seq - b.seq,
  );
  if (!first)
    return (
      <p className={`-mt-2 text-sm ${mutedLook}`}>
        Tick two entries to see what changed in the cluster between them, object by object.
      </p>
    );
  return (
    <section
      aria-label="Compare"
      className="sticky top-0 z-10 flex flex-wrap items-center gap-3 rounded-md border border-teal-300 bg-teal-50 px-3 py-2 text-sm dark:border-teal-800 dark:bg-teal-950"
    >
      <p className="mr-auto">
        From <span className="font-medium">{entryText(first)}</span> to{' '}
        {last ? (
          <span className="font-medium">{entryText(last)}</span>
        ) : (
          <>
            <span className="font-medium">now</span> — tick another entry to end there
          </>
        )}
      </p>
      <Link
        to="/timeline/between"
        search={{
          namespace,
          from: justBefore(first.timestamp),
          to: last && rightAfter(last.timestamp),
        }}
        className={primaryLook}
      >
        {last ? 'What changed between them' : 'What changed since then'}
      </Link>
      <button type="button" className={buttonLook} onClick={clear}>
        Clear
      </button>
    </section>
  );
}
