import { mutedLook, panelLook } from '../../ui/controls.tsx';
import type { ReadinessReport } from './types.ts';

/**
 * The API server's own figures: which deprecated APIs clients requested since it started, or why they could not
 * be read (the caller may not `get /metrics`).
 */
export function ApiServerRequests({ metrics }: { metrics: ReadinessReport['apiServerMetrics'] }) {
  return (
    <section aria-label="API server figures" className={panelLook}>
      <h2 className="text-sm font-semibold">API server figures</h2>
      <p className={`mb-2 text-xs ${mutedLook}`}>
        apiserver_requested_deprecated_apis: the deprecated APIs clients requested since this API server
        started
      </p>
      {!metrics.available ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">Not available: {metrics.reason}</p>
      ) : metrics.requested.length === 0 ? (
        <p className="text-sm">No deprecated API was requested.</p>
      ) : (
        <ul className="flex flex-wrap gap-2">
          {metrics.requested.map((r) => {
            const name = `${r.resource}${r.subresource ? `/${r.subresource}` : ''} ${r.group ? `${r.group}/` : ''}${r.version}`;
            return (
              <li
                key={name}
                className="rounded border border-slate-200 px-2 py-1 font-mono text-xs dark:border-slate-700"
              >
                {name}
                {r.removedRelease ? ` · removed in ${r.removedRelease}` : ''}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
