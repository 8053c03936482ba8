import type { KubeObject } from '@binnacle/common';
import type { Health } from '../../kube/health.ts';
import { healthOf } from '../../kube/health.ts';
import type { StoredRelease } from '../../scope/helm-releases.ts';

export const sources = ['helm', 'labels', 'crds', 'argocd', 'flux'] as const;
export type Source = (typeof sources)[number];

/** One signal that a package is installed: which object says so, and what it says. */
export interface Contributor {
  source: Source;
  chart: string;
  health: Health;
  version?: string;
  appVersion?: string;
  releaseName?: string;
  releaseNamespace?: string;
  object: { kind: string; namespace?: string; name: string };
}

type Obj = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const ref = (object: KubeObject) => ({
  kind: object.kind ?? '',
  ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
  name: object.metadata?.name ?? '',
});

const helmStatusHealth: Record<string, Health> = {
  deployed: 'healthy',
  failed: 'unhealthy',
  'pending-install': 'degraded',
  'pending-upgrade': 'degraded',
  'pending-rollback': 'degraded',
  uninstalling: 'degraded',
};

/** A Helm release (its newest revision), from its Secret. */
export function fromRelease(release: StoredRelease, secret: KubeObject): Contributor {
  const chart = release.chart?.metadata;
  return {
    source: 'helm',
    chart: chart?.name ?? release.name,
    health: helmStatusHealth[release.info?.status ?? ''] ?? 'unknown',
    version: chart?.version,
    appVersion: chart?.appVersion,
    releaseName: release.name,
    releaseNamespace: release.namespace,
    object: ref(secret),
  };
}

/** `helm.sh/chart: <name>-<version>` splits at the last dash that starts a version. */
export function splitChartLabel(label: string): { chart: string; version?: string } {
  const match = /^(.+?)-(v?\d+\.\d+[^/]*)$/.exec(label);
  return match ? { chart: match[1] ?? label, version: match[2] } : { chart: label };
}

/** A workload that a chart labelled (`helm.sh/chart`, the `meta.helm.sh/release-*` annotations). */
export function fromWorkload(workload: KubeObject): Contributor | undefined {
  const labels = workload.metadata?.labels ?? {};
  const annotations = workload.metadata?.annotations ?? {};
  const chartLabel = str(labels['helm.sh/chart']);
  if (!chartLabel) return undefined;
  const { chart, version } = splitChartLabel(chartLabel);
  return {
    source: 'labels',
    chart,
    health: healthOf(workload),
    version,
    appVersion: str(labels['app.kubernetes.io/version']),
    releaseName: str(annotations['meta.helm.sh/release-name']) ?? str(labels['app.kubernetes.io/instance']),
    releaseNamespace: str(annotations['meta.helm.sh/release-namespace']) ?? workload.metadata?.namespace,
    object: ref(workload),
  };
}

/**
 * CRD groups whose chart is well known. One API group can hold CRDs of several charts (argoproj.io: Argo CD and
 * Argo Rollouts), so some entries name the CRD's plural too.
 */
const chartByCrd: [RegExp, string][] = [
  [/^(applications|applicationsets|appprojects)\.argoproj\.io$/, 'argo-cd'],
  [
    /^(rollouts|analysistemplates|clusteranalysistemplates|analysisruns|experiments)\.argoproj\.io$/,
    'argo-rollouts',
  ],
  [/^workflows?\w*\.argoproj\.io$/, 'argo-workflows'],
  [/\.toolkit\.fluxcd\.io$/, 'flux2'],
  [/\.cert-manager\.io$/, 'cert-manager'],
  [/\.monitoring\.coreos\.com$/, 'kube-prometheus-stack'],
  [/\.istio\.io$/, 'istio'],
  [/\.projectcalico\.org$/, 'calico'],
  [/\.cilium\.io$/, 'cilium'],
  [/\.keda\.sh$/, 'keda'],
  [/\.external-secrets\.io$/, 'external-secrets'],
  [/\.kyverno\.io$/, 'kyverno'],
  [/\.gateway\.networking\.k8s\.io$/, 'gateway-api'],
  [/\.velero\.io$/, 'velero'],
  [/\.traefik\.(io|containo\.us)$/, 'traefik'],
];

/** A CustomResourceDefinition, attributed to a chart by its Helm labels or the table above. */
export function fromCrd(crd: KubeObject): Contributor | undefined {
  const labels = crd.metadata?.labels ?? {};
  const name = crd.metadata?.name ?? '';
  const labelled = str(labels['helm.sh/chart']);
  const fromLabel = labelled ? splitChartLabel(labelled) : undefined;
  const chart = fromLabel?.chart ?? chartByCrd.find(([pattern]) => pattern.test(name))?.[1];
  if (!chart) return undefined;
  const versions = ((crd.spec as Obj | undefined)?.versions as { name?: string }[] | undefined) ?? [];
  const established = ((crd.status as Obj | undefined)?.conditions as Obj[] | undefined)?.find(
    (c) => c.type === 'Established',
  );
  return {
    source: 'crds',
    chart,
    health: established?.status === 'True' ? 'healthy' : established ? 'unhealthy' : 'unknown',
    version: fromLabel?.version ?? str(labels['app.kubernetes.io/version']) ?? versions[0]?.name,
    object: ref(crd),
  };
}

const argoHealth: Record<string, Health> = {
  Healthy: 'healthy',
  Suspended: 'healthy',
  Progressing: 'degraded',
  Degraded: 'unhealthy',
  Missing: 'unhealthy',
};

/** An Argo CD Application: a chart when its source is one, else the application itself. */
export function fromApplication(app: KubeObject): Contributor {
  const spec = (app.spec ?? {}) as Obj;
  const source = (spec.source ?? (spec.sources as Obj[] | undefined)?.[0] ?? {}) as Obj;
  const helm = (source.helm ?? {}) as Obj;
  const status = (app.status ?? {}) as Obj;
  const name = app.metadata?.name ?? '';
  return {
    source: 'argocd',
    chart: str(source.chart) ?? name,
    health: argoHealth[str((status.health as Obj | undefined)?.status) ?? ''] ?? 'unknown',
    version: str(source.targetRevision),
    releaseName: str(helm.releaseName) ?? name,
    releaseNamespace: str((spec.destination as Obj | undefined)?.namespace),
    object: ref(app),
  };
}

/** A Flux HelmRelease (its chart) or Kustomization (the kustomization itself), healthy when Ready. */
export function fromFlux(object: KubeObject): Contributor {
  const spec = (object.spec ?? {}) as Obj;
  const status = (object.status ?? {}) as Obj;
  const name = object.metadata?.name ?? '';
  const chart = ((spec.chart as Obj | undefined)?.spec ?? {}) as Obj;
  const isRelease = object.kind === 'HelmRelease';
  return {
    source: 'flux',
    chart: (isRelease && str(chart.chart)) || name,
    health: healthOf(object),
    version: isRelease
      ? (str(chart.version) ?? str(status.lastAttemptedRevision))
      : str(status.lastAppliedRevision),
    releaseName: isRelease ? (str(spec.releaseName) ?? name) : name,
    releaseNamespace: str(spec.targetNamespace) ?? object.metadata?.namespace,
    object: ref(object),
  };
}
