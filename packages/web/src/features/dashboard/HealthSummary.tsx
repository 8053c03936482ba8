import { Link } from '@tanstack/react-router';
import type { Dashboard } from './DashboardPage.tsx';
import { PodsLink } from './links.tsx';

type Health = Dashboard['health'];

const cardLook =
  'block rounded-lg border border-l-4 border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900';
const linkLook =
  'hover:border-slate-400 hover:bg-slate-50 dark:hover:border-slate-600 dark:hover:bg-slate-800';

/** A figure, or a dash when the caller may not list what it counts (a 0 would read as "none"). */
function Figure({ label, value }: { label: string; value?: number }) {
  return (
    <>
      <span className="block text-sm text-slate-600 dark:text-slate-400">{label}</span>
      <span className="mt-1 block text-2xl font-semibold tabular-nums">
        {value ?? <span title="not allowed">—</span>}
      </span>
    </>
  );
}

/**
 * The pods by health and the warnings of the last hour, each card opening the table of what it counts: the pods
 * by the kubectl statuses counted (a card counting none opens nothing), the timeline's warnings. `refused`: the
 * caller may list pods nowhere here, so there is nothing to count — dashes, not zeros.
 */
export function HealthSummary({ health, refused }: { health: Health; refused: boolean }) {
  const pods: [string, number, string[], string][] = [
    ['Healthy pods', health.healthy, ['Running', 'Completed'], 'border-l-emerald-500'],
    ['Pods with warnings', health.warning, health.warningStatuses, 'border-l-amber-500'],
    ['Failing pods', health.error, health.failingStatuses, 'border-l-red-500'],
  ];
  return (
    <section aria-label="Health" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {pods.map(([label, value, statuses, accent]) =>
        refused ? (
          <div key={label} className={`${cardLook} border-l-slate-300 dark:border-l-slate-700`}>
            <Figure label={label} />
          </div>
        ) : value > 0 ? (
          <PodsLink key={label} statuses={statuses} className={`${cardLook} ${linkLook} ${accent}`}>
            <Figure label={label} value={value} />
          </PodsLink>
        ) : (
          <div key={label} className={`${cardLook} ${accent}`}>
            <Figure label={label} value={value} />
          </div>
        ),
      )}
      <Link
        to="/timeline"
        search={(prev) => ({ namespace: prev.namespace, type: 'warnings' })}
        className={`${cardLook} ${linkLook} border-l-orange-500`}
      >
        <Figure label="Warning events (1h)" value={refused ? undefined : health.warningEvents} />
      </Link>
    </section>
  );
}
