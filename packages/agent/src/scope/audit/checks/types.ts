import type { KubeObject } from '@binnacle/common';
import type { ContainerUsage } from '../../metrics/usage.ts';

export type Severity = 'warning' | 'danger';
export type Category = 'Security' | 'Reliability' | 'Efficiency';

/** What a check is, for the catalogue, the docs and the findings' explanations. */
export interface CheckMeta {
  id: string;
  title: string;
  category: Category;
  /** What the check looks for, one or two sentences. */
  description: string;
  /** What to change to pass it. */
  remediation: string;
  defaultSeverity: Severity;
  /** Sections of hardening guides and benchmarks the check helps with. */
  frameworks: string[];
  /** Kubernetes documentation pages. */
  references: string[];
  /** Other tools' ids for the same check, `polaris:<id>` for Fairwinds Polaris. */
  aliases: string[];
  /** The kinds the check reads; `*` for every kind. */
  appliesTo: string[];
}

/** One problem a check found on one object (the caller adds which object). */
export interface Finding {
  checkId: string;
  severity: Severity;
  message: string;
  container?: string;
}

/** The kinds the context indexes by namespace and name (cluster-scoped ones under the namespace ''). */
export type IndexedKind =
  | 'Pod'
  | 'PodDisruptionBudget'
  | 'HorizontalPodAutoscaler'
  | 'Service'
  | 'Ingress'
  | 'NetworkPolicy'
  | 'ServiceAccount'
  | 'Role'
  | 'ClusterRole';

/** Read-only lookups into one snapshot of the cluster, built once by the caller; every lookup is cheap. */
export interface AuditContext {
  /** When the snapshot is judged, in milliseconds since the epoch. */
  readonly now: number;
  /** The objects of a kind in a namespace ('' for cluster-scoped kinds). */
  list(kind: IndexedKind, namespace: string): readonly KubeObject[];
  /** One object of a kind by namespace ('' for cluster-scoped kinds) and name. */
  get(kind: IndexedKind, namespace: string, name: string): KubeObject | undefined;
  /** The pods a workload runs: through owner references, else (objects without a uid) through its selector. */
  podsOf(workload: KubeObject): readonly KubeObject[];
  /** Whether a pod, a workload's template, an Ingress (TLS) or a ServiceAccount reads this ConfigMap or Secret. */
  isReferenced(kind: 'ConfigMap' | 'Secret', namespace: string, name: string): boolean;
  /** The group/versions the API server serves (`v1`, `apps/v1`); undefined when discovery was not read. */
  readonly servedApiVersions: ReadonlySet<string> | undefined;
  /** A pod's usage per container (metrics.k8s.io); undefined when there are no metrics for it. */
  podUsage(namespace: string, name: string): readonly ContainerUsage[] | undefined;
}

export interface Check {
  meta: CheckMeta;
  /** The findings on one object; none when the object passes or is not a kind the check reads. */
  run(object: KubeObject, context: AuditContext): Finding[];
}
