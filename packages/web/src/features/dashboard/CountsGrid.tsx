import { Link } from '@tanstack/react-router';
import { type Access, hiddenFromView } from '../shell/access.ts';
import type { Dashboard } from './DashboardPage.tsx';

type Counts = Dashboard['counts'];

/** Each kind's total and the part of it that needs a look. */
function rows(c: Counts): [string, number, string?][] {
  return [
    ['Nodes', c.nodes.total, c.nodes.notReady ? `${c.nodes.notReady} not ready` : undefined],
    [
      'Pods',
      c.pods.total,
      c.pods.pending || c.pods.failing ? `${c.pods.failing} failing · ${c.pods.pending} pending` : undefined,
    ],
    [
      'Deployments',
      c.deployments.total,
      c.deployments.unavailable ? `${c.deployments.unavailable} unavailable` : undefined,
    ],
    [
      'StatefulSets',
      c.statefulSets.total,
      c.statefulSets.ready < c.statefulSets.total
        ? `${c.statefulSets.total - c.statefulSets.ready} not ready`
        : undefined,
    ],
    [
      'DaemonSets',
      c.daemonSets.total,
      c.daemonSets.ready < c.daemonSets.total
        ? `${c.daemonSets.total - c.daemonSets.ready} not ready`
        : undefined,
    ],
    ['Jobs', c.jobs.total, c.jobs.failed ? `${c.jobs.failed} failed` : undefined],
    ['CronJobs', c.cronJobs.total, c.cronJobs.suspended ? `${c.cronJobs.suspended} suspended` : undefined],
    ['PVCs', c.pvcs.total, c.pvcs.pending ? `${c.pvcs.pending} pending` : undefined],
    ['Services', c.services],
    ['Ingresses', c.ingresses],
    ['ConfigMaps', c.configMaps],
    ['Secrets', c.secrets],
    ['Namespaces', c.namespaces],
  ];
}

/** Each tile opens its kind's table (the label's plural: `PVCs` is the claims). */
const tableOf = (label: string) => (label === 'PVCs' ? 'persistentvolumeclaims' : label.toLowerCase());

/** The kind each tile counts, for the caller's view; Namespaces always show (the view is made of them). */
const kindOf: Record<string, { kind: string; namespaced: boolean } | undefined> = {
  Nodes: { kind: 'Node', namespaced: false },
  Pods: { kind: 'Pod', namespaced: true },
  Deployments: { kind: 'Deployment', namespaced: true },
  StatefulSets: { kind: 'StatefulSet', namespaced: true },
  DaemonSets: { kind: 'DaemonSet', namespaced: true },
  Jobs: { kind: 'Job', namespaced: true },
  CronJobs: { kind: 'CronJob', namespaced: true },
  PVCs: { kind: 'PersistentVolumeClaim', namespaced: true },
  Services: { kind: 'Service', namespaced: true },
  Ingresses: { kind: 'Ingress', namespaced: true },
  ConfigMaps: { kind: 'ConfigMap', namespaced: true },
  Secrets: { kind: 'Secret', namespaced: true },
};

/** A tile's refusal: its count is not a zero but something the caller may not see. */
function refusalOf(access: Access | undefined, label: string) {
  const kind = kindOf[label];
  return access && kind && hiddenFromView(access, { ...kind, plural: label.toLowerCase() });
}

/** Every kind's total; one the caller may not list reads "not allowed", never 0. */
export function CountsGrid({ counts, access }: { counts: Counts; access?: Access }) {
  return (
    <section aria-label="Resource counts" className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
      {rows(counts).map(([label, total, note]) => {
        const refused = refusalOf(access, label);
        return (
          <Link
            key={label}
            to="/resources/$kind"
            params={{ kind: tableOf(label) }}
            search={(prev) => ({ namespace: prev.namespace })}
            className="block rounded-md border border-slate-200 bg-white px-3 py-2 hover:border-slate-400 hover:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-slate-600 dark:hover:bg-slate-800"
          >
            <span className="block text-xs text-slate-600 dark:text-slate-400">{label}</span>
            {refused ? (
              <>
                <span className="block text-lg font-semibold text-slate-500 dark:text-slate-400">—</span>
                <span className="block text-xs text-amber-800 dark:text-amber-300" title={refused.short}>
                  not allowed
                </span>
              </>
            ) : (
              <>
                <span className="block text-lg font-semibold tabular-nums">{total}</span>
                {note && <span className="block text-xs text-amber-800 dark:text-amber-300">{note}</span>}
              </>
            )}
          </Link>
        );
      })}
    </section>
  );
}
