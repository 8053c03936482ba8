import type { Dashboard } from './DashboardPage.tsx';

const tiles = [
  ['healthy', 'Healthy pods', 'border-l-emerald-500'],
  ['warning', 'Pods with warnings', 'border-l-amber-500'],
  ['error', 'Failing pods', 'border-l-red-500'],
  ['warningEvents', 'Warning events (1h)', 'border-l-orange-500'],
] as const;

export function HealthSummary({ health }: { health: Dashboard['health'] }) {
  return (
    <section aria-label="Health" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {tiles.map(([key, label, accent]) => (
        <div
          key={key}
          className={`rounded-lg border border-l-4 border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${accent}`}
        >
          <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums">{health[key]}</p>
        </div>
      ))}
    </section>
  );
}
