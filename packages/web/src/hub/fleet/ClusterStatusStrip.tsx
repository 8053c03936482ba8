import { Badge, type Tone } from '../../ui/Badge.tsx';
import type { FleetAnswer } from './fleet-query.ts';

type Status = FleetAnswer['clusters'][number]['status'];

/** Each status in words and colour; the words carry it (a screen reader, a colour-blind reader). */
const look: Record<Status, [Tone, string]> = {
  ok: ['good', 'ok'],
  offline: ['muted', 'offline'],
  timeout: ['warn', 'timed out'],
  forbidden: ['warn', 'forbidden'],
  error: ['bad', 'error'],
};

/**
 * How every cluster of the organisation answered this view: one chip per cluster, then the failures with the
 * hub's message, so partial rows are never read as the whole fleet.
 */
export function ClusterStatusStrip({ answer }: { answer: FleetAnswer }) {
  const { clusters, errors } = answer;
  return (
    <section aria-label="Clusters asked" className="flex flex-col gap-2">
      <ul aria-label="Status of each cluster" className="flex flex-wrap gap-2">
        {clusters.map((cluster) => {
          const [tone, word] = look[cluster.status] ?? look.error;
          return (
            <li
              key={cluster.id}
              className="flex items-center gap-2 rounded-md border border-slate-200 bg-white px-2.5 py-1 text-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <span className="font-medium">{cluster.name}</span>
              <Badge tone={tone}>{word}</Badge>
              {cluster.status === 'ok' && (
                <span className="text-xs tabular-nums text-slate-600 dark:text-slate-400">
                  {cluster.rows} {cluster.rows === 1 ? 'row' : 'rows'}
                </span>
              )}
              {cluster.loading && (
                <span
                  className="text-xs text-slate-600 dark:text-slate-400"
                  title={cluster.loading.join(', ')}
                >
                  still loading {cluster.loading.length} {cluster.loading.length === 1 ? 'kind' : 'kinds'}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {errors.length > 0 && (
        <div
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">
            Partial results: {errors.length} of {clusters.length}{' '}
            {clusters.length === 1 ? 'cluster' : 'clusters'} did not answer, so their rows are missing.
          </p>
          <ul aria-label="Clusters that did not answer" className="mt-1 list-disc pl-5">
            {errors.map((failure) => (
              <li key={failure.cluster.id}>
                <span className="font-medium">{failure.cluster.name}</span>: {failure.error}{' '}
                <span className="font-mono text-xs">({failure.code})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
