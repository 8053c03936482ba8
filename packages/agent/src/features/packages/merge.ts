import type { Health } from '../../kube/health.ts';
import { type Contributor, type Source, sources } from './contributors.ts';

export interface PackageRow {
  chart: string;
  namespace?: string;
  releaseName?: string;
  version?: string;
  appVersion?: string;
  /** The worst health of its contributors. */
  health: Health;
  sources: Source[];
  contributors: Contributor[];
}

/** Worst last: a package is as healthy as its least healthy signal. */
export const healthOrder: Health[] = ['healthy', 'unknown', 'degraded', 'unhealthy'];
const worst = (a: Health, b: Health) => (healthOrder.indexOf(a) >= healthOrder.indexOf(b) ? a : b);
/** Whose version and namespace a row shows: what Helm stored beats a label, a label beats a CRD, … */
const byPriority = (a: Contributor, b: Contributor) => sources.indexOf(a.source) - sources.indexOf(b.source);

const releaseKey = (c: Contributor) => `${c.chart}\0${c.releaseNamespace ?? ''}\0${c.releaseName}`;

/**
 * One row per installed package: signals of the same chart and release (its Helm Secret, the workloads it
 * labelled, the Argo CD or Flux object that installs it) merge; CRDs, which name no release, join the rows of
 * their chart, or make a row of their own.
 */
export function mergePackages(contributors: Contributor[]): PackageRow[] {
  const groups = new Map<string, Contributor[]>();
  const releaseless: Contributor[] = [];
  for (const contributor of contributors) {
    if (contributor.releaseName === undefined) {
      releaseless.push(contributor);
      continue;
    }
    const key = releaseKey(contributor);
    groups.set(key, [...(groups.get(key) ?? []), contributor]);
  }
  for (const contributor of releaseless) {
    const sameChart = [...groups.values()].filter((group) => group[0]?.chart === contributor.chart);
    if (sameChart.length === 0) groups.set(`${contributor.chart}\0`, [contributor]);
    for (const group of sameChart) group.push(contributor);
  }
  return [...groups.values()]
    .map(toRow)
    .sort(
      (a, b) =>
        a.chart.localeCompare(b.chart) ||
        (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
        (a.releaseName ?? '').localeCompare(b.releaseName ?? ''),
    );
}

function toRow(group: Contributor[]): PackageRow {
  const ordered = [...group].sort(byPriority);
  const first = ordered[0] as Contributor;
  const named = ordered.find((c) => c.releaseName !== undefined);
  return {
    chart: first.chart,
    ...(named?.releaseNamespace ? { namespace: named.releaseNamespace } : {}),
    ...(named?.releaseName ? { releaseName: named.releaseName } : {}),
    ...optional('version', ordered.find((c) => c.version)?.version),
    ...optional('appVersion', ordered.find((c) => c.appVersion)?.appVersion),
    health: ordered.map((c) => c.health).reduce(worst),
    sources: sources.filter((source) => ordered.some((c) => c.source === source)),
    contributors: ordered,
  };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;
