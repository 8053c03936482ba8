import type { ErrorBody, KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AuditSettings } from '../../config/agent-config.ts';
import type { Cluster } from '../../kube/cluster.ts';
import { apiVersionOf } from '../../kube/discovery.ts';
import { auditObject, checkCatalogue } from './checks/catalogue.ts';
import { createAuditContext } from './checks/context.ts';
import type { AuditContext, Category, Finding, Severity } from './checks/types.ts';

/** The kinds the audit reads (and judges where a check applies), with their API groups. */
const auditedKinds = [
  ['', 'Pod'],
  ['', 'Service'],
  ['', 'ConfigMap'],
  ['', 'Secret'],
  ['', 'ServiceAccount'],
  ['', 'ReplicationController'],
  ['apps', 'Deployment'],
  ['apps', 'StatefulSet'],
  ['apps', 'DaemonSet'],
  ['apps', 'ReplicaSet'],
  ['batch', 'Job'],
  ['batch', 'CronJob'],
  ['networking.k8s.io', 'Ingress'],
  ['networking.k8s.io', 'NetworkPolicy'],
  ['policy', 'PodDisruptionBudget'],
  ['autoscaling', 'HorizontalPodAutoscaler'],
  ['rbac.authorization.k8s.io', 'Role'],
  ['rbac.authorization.k8s.io', 'ClusterRole'],
  ['rbac.authorization.k8s.io', 'RoleBinding'],
  ['rbac.authorization.k8s.io', 'ClusterRoleBinding'],
] as const;

export interface ObjectFinding extends Finding {
  kind: string;
  namespace?: string;
  name: string;
  category: Category;
}

/** Where the engine reads objects from and hears of changes: the informer cache, or a benchmark's own objects. */
export interface AuditSource {
  /** The objects of the audited kinds, and the kinds still loading. */
  snapshot(): { objects: KubeObject[]; loading: string[] };
  /** The group/versions the API server serves. */
  servedApiVersions(): string[];
  onChange(listener: (object: KubeObject, deleted: boolean) => void): void;
}

interface Memo {
  resourceVersion: string;
  epoch: number;
  findings: Finding[];
}

/** Which objects to judge and how: the namespaces in view (undefined: all), and the audit settings to apply. */
export interface AuditScope {
  namespaces?: string[];
  settings: AuditSettings;
}

/**
 * The audit over the informer cache, incremental: an object's findings are kept with the resourceVersion they were
 * computed for and its namespace's epoch, which every change in that namespace bumps (checks read their
 * neighbours: a PDB change re-judges the namespace's workloads); cluster-scoped changes (RBAC) bump every epoch.
 * So a request after one pod changed re-runs the checks of that pod's namespace only, and the rest comes from
 * memory.
 */
export class AuditEngine {
  readonly #source: AuditSource;
  readonly #memo = new Map<string, Memo>();
  readonly #epochs = new Map<string, number>();
  #clusterEpoch = 0;

  constructor(source: AuditSource) {
    this.#source = source;
    source.onChange((object, deleted) => {
      const namespace = object.metadata?.namespace;
      if (namespace) this.#epochs.set(namespace, (this.#epochs.get(namespace) ?? 0) + 1);
      else this.#clusterEpoch += 1;
      if (deleted && object.metadata?.uid) this.#memo.delete(object.metadata.uid);
    });
  }

  #epoch(namespace: string | undefined): number {
    return this.#clusterEpoch + (namespace ? (this.#epochs.get(namespace) ?? 0) : 0);
  }

  /** Every finding on the objects in scope, with settings applied (ignored namespaces, disabled checks, severities). */
  run(
    scope: AuditScope,
    now = Date.now(),
  ): { findings: ObjectFinding[]; audited: KubeObject[]; loading: string[] } {
    const { objects, loading } = this.#source.snapshot();
    const wanted = scope.namespaces ? new Set(scope.namespaces) : undefined;
    const ignored = new Set(scope.settings.ignoredNamespaces);
    const inScope = (o: KubeObject) => {
      const namespace = o.metadata?.namespace;
      if (!namespace) return !wanted;
      return !ignored.has(namespace) && (!wanted || wanted.has(namespace));
    };
    const audited = objects.filter(inScope);
    let context: AuditContext | undefined;
    const contextFor = () => {
      context ??= createAuditContext(objects, {
        now,
        servedApiVersions: this.#source.servedApiVersions(),
      });
      return context;
    };
    const findings: ObjectFinding[] = [];
    for (const object of audited) {
      for (const finding of this.#findingsOf(object, contextFor))
        findings.push(this.#judged(object, finding, scope.settings));
    }
    const disabled = new Set(scope.settings.disabledChecks);
    return { findings: findings.filter((f) => !disabled.has(f.checkId)), audited, loading };
  }

  /**
   * `run` for views that show the audit beside other things (dashboard, topology, ADR 0074): `run` when it ran;
   * nothing while pods load (they come on a later refresh); otherwise `error`, the `{error, code}` of why it cannot
   * run — the API server's 403 to the agent, or its failure to list — so a refusal never reads as "no findings".
   */
  attempt(scope: AuditScope, now = Date.now()): { run?: ReturnType<AuditEngine['run']>; error?: ErrorBody } {
    try {
      return { run: this.run(scope, now) };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return error.code === 'not_ready' ? {} : { error: { error: error.message, code: error.code } };
    }
  }

  #findingsOf(object: KubeObject, context: () => AuditContext): Finding[] {
    const uid = object.metadata?.uid;
    const resourceVersion = object.metadata?.resourceVersion ?? '';
    const epoch = this.#epoch(object.metadata?.namespace);
    const memo = uid ? this.#memo.get(uid) : undefined;
    if (memo && memo.resourceVersion === resourceVersion && memo.epoch === epoch) return memo.findings;
    const findings = auditObject(object, context());
    if (uid) this.#memo.set(uid, { resourceVersion, epoch, findings });
    return findings;
  }

  #judged(object: KubeObject, finding: Finding, settings: AuditSettings): ObjectFinding {
    const meta = checkCatalogue.get(finding.checkId);
    const override = settings.severityOverrides?.[finding.checkId] as Severity | undefined;
    return {
      kind: object.kind ?? '',
      ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
      name: object.metadata?.name ?? '',
      category: meta?.category ?? 'Reliability',
      ...finding,
      severity: override ?? finding.severity,
    };
  }
}

/** The informer cache as the audit's source: the audited kinds that are synced, every change as it happens. */
export function clusterAuditSource(cluster: Cluster): AuditSource {
  return {
    snapshot() {
      // Pods are what nearly every check reads: an agent that may not list them answers the API server's 403 (or
      // 503 while they load) rather than an audit that silently found nothing.
      cluster.cache.list(cluster.resolve('pods'));
      const objects: KubeObject[] = [];
      const loading: string[] = [];
      for (const [group, kind] of auditedKinds) {
        const resource = cluster.find(group, kind);
        // A kind the agent does not cache would be "loading" for ever: judged only once it is cached.
        if (!resource || !cluster.cache.caches(resource)) continue;
        const informer = cluster.cache.informer(resource);
        if (!informer?.synced) {
          if (informer?.state !== 'forbidden') loading.push(`${resource.plural}${group ? `.${group}` : ''}`);
          continue;
        }
        objects.push(...informer.list());
      }
      return { objects, loading };
    },
    servedApiVersions: () => cluster.resources().map(apiVersionOf),
    onChange: (listener) => {
      cluster.cache.onEvent(({ object, type }) => listener(object, type === 'deleted'));
    },
  };
}
