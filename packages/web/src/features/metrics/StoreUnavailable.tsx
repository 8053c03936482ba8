import type { Answer } from '../../api/client.ts';
import { linkLook, mutedLook } from '../../ui/controls.tsx';

/** What every metrics and cost route answers instead of figures when it has none to give (a 200, not an error). */
export type Unavailable = Extract<Answer<'/api/cost/summary'>, { available: false }>;

/**
 * No store, a store that does not answer, or a store without the series a page needs: the agent's reason and what
 * to do about it — this is a setup step, not a failure of the page.
 */
export function StoreUnavailable({ answer, needs }: { answer: Unavailable; needs: 'metrics' | 'cost' }) {
  const missingSeries = (answer.missing?.length ?? 0) > 0;
  const title = missingSeries
    ? needs === 'cost'
      ? 'No cost data in the metrics store yet'
      : 'The metrics store lacks the series this needs'
    : 'No metrics store to read from';
  return (
    <section
      aria-label={title}
      className="rounded-lg border border-dashed border-slate-300 bg-white px-5 py-4 text-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 className="font-semibold">{title}</h2>
      <p className={`mt-1 ${mutedLook}`}>{answer.reason}</p>
      <p className="mt-3">
        {missingSeries && needs === 'cost' ? (
          <>
            Install{' '}
            <a className={linkLook} href="https://www.opencost.io/docs/installation/install">
              OpenCost
            </a>{' '}
            and have the metrics store scrape its exporter: Binnacle prices pods from its{' '}
            <code className="font-mono text-xs">node_*_hourly_cost</code> and allocation series.
          </>
        ) : missingSeries ? (
          'Have the metrics store scrape cAdvisor (the kubelet) and kube-state-metrics.'
        ) : (
          <>
            Start the agent with <code className="font-mono text-xs">--metricsdb-url</code> set to a
            Prometheus, VictoriaMetrics, Thanos or Mimir address, or install one (kube-prometheus-stack, for
            example) in a namespace where the agent can list Services: it finds it by itself.
          </>
        )}
      </p>
      {(answer.tried?.length ?? 0) > 0 && (
        <details className="mt-3">
          <summary className={`cursor-pointer ${mutedLook}`}>
            Addresses tried ({answer.tried?.length})
          </summary>
          <ul className="mt-1 font-mono text-xs">
            {answer.tried?.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
