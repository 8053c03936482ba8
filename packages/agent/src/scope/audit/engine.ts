import type { ErrorBody, KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AuditSettings } from '../../config/agent-config.ts';
import type { Cluster } from '../../kube/cluster.ts';
import { apiVersionOf } from '../../kube/discovery.ts';
import { auditObject, checkCatalogue } from './checks/catalogue.ts';
import { createAuditContext } from './checks/context.ts';
import type { AuditContext, Category, Finding, Severity } from './checks/types.ts';
import {
  type AuditCounts,
  type AuditSummary,
  type NamespaceTally,
  sumTallies,
  tallyNamespace,
} from './tally.ts';

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
  /** Per namespace ('' for cluster-scoped objects), its tally under `#tallyKey` (settings and kinds loading). */
  readonly #tallies = new Map<string, NamespaceTally>();
  #tallyKey = '';

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
    const inScope = namespaceFilter(scope);
    const audited = objects.filter((o) => inScope(o.metadata?.namespace));
    const contextFor = this.#contextOf(objects, now);
    const findings: ObjectFinding[] = [];
    for (const object of audited) {
      for (const finding of this.#findingsOf(object, contextFor))
        findings.push(this.#judged(object, finding, scope.settings));
    }
    const disabled = new Set(scope.settings.disabledChecks);
    return { findings: findings.filter((f) => !disabled.has(f.checkId)), audited, loading };
  }

  /**
   * The counts and danger findings of the objects in scope whose kind `visible` admits: what the dashboard and
   * the fleet's problems show (ADR 0105). Tallied per namespace and kind, and re-tallied only for namespaces whose
   * epoch moved since (or all, when the settings or the kinds still loading change), so a request on a cluster
   * that did not change judges nothing and allocates little.
   */
  summary(scope: AuditScope, visible: (kind: string) => boolean, now = Date.now()): AuditSummary {
    const loading = this.#tally(scope, now);
    const inScope = namespaceFilter(scope);
    return { ...sumTallies(this.#tallies, (namespace) => inScope(namespace || undefined), visible), loading };
  }

  /**
   * Finding counts per object and per namespace in scope, from the same tallies as `summary`: what the topology
   * shows on its nodes, without materializing every finding (ADR 0113).
   */
  counts(scope: AuditScope, now = Date.now()): AuditCounts {
    this.#tally(scope, now);
    const inScope = namespaceFilter(scope);
    const tallies = this.#tallies;
    const tallyOf = (namespace: string) =>
      inScope(namespace || undefined) ? tallies.get(namespace) : undefined;
    return {
      // objectKey is `kind/namespace/name`: the namespace is its middle part.
      ofObject: (key) => tallyOf(key.split('/')[1] ?? '')?.objects.get(key),
      ofNamespace: (namespace) => {
        const total = tallyOf(namespace)?.total;
        return total && total.warning + total.danger > 0 ? total : undefined;
      },
    };
  }

  /** Re-tallies the namespaces whose epoch moved (all, when the settings or the kinds loading changed); the kinds loading. */
  #tally(scope: AuditScope, now: number): string[] {
    const { objects, loading } = this.#source.snapshot();
    const key = JSON.stringify([scope.settings, loading]);
    if (key !== this.#tallyKey) {
      this.#tallies.clear();
      this.#tallyKey = key;
    }
    const stale = new Map<string, KubeObject[]>();
    for (const object of objects) {
      const namespace = object.metadata?.namespace ?? '';
      if (this.#tallies.get(namespace)?.epoch === this.#epoch(namespace || undefined)) continue;
      const pending = stale.get(namespace);
      if (pending) pending.push(object);
      else stale.set(namespace, [object]);
    }
    const contextFor = this.#contextOf(objects, now);
    const disabled = new Set(scope.settings.disabledChecks);
    for (const [namespace, members] of stale) {
      const judged = (object: KubeObject) =>
        this.#findingsOf(object, contextFor)
          .map((finding) => this.#judged(object, finding, scope.settings))
          .filter((f) => !disabled.has(f.checkId));
      this.#tallies.set(namespace, tallyNamespace(this.#epoch(namespace || undefined), members, judged));
    }
    // A namespace whose objects are all gone was not re-tallied: its epoch moved with the deletions.
    for (const [namespace, tally] of this.#tallies)
      if (tally.epoch !== this.#epoch(namespace || undefined)) this.#tallies.delete(namespace);
    return loading;
  }

  /** The context checks read their neighbours from, built on first need: most requests need none. */
  #contextOf(objects: KubeObject[], now: number): () => AuditContext {
    let context: AuditContext | undefined;
    return () => {
      context ??= createAuditContext(objects, { now, servedApiVersions: this.#source.servedApiVersions() });
      return context;
    };
  }

  /**
   * `run` for views that show the audit beside other things (dashboard, topology, ADR 0074): `run` when it ran;
   * nothing while pods load (they come on a later refresh); otherwise `error`, the `{error, code}` of why it cannot
   * run — the API server's 403 to the agent, or its failure to list — so a refusal never reads as "no findings".
   */
  attempt(scope: AuditScope, now = Date.now()): { run?: ReturnType<AuditEngine['run']>; error?: ErrorBody } {
    const { value, error } = attempted(() => this.run(scope, now));
    return { run: value, ...(error ? { error } : {}) };
  }

  /** `summary` as `attempt` runs `run`: nothing while pods load, `error` when the audit cannot run. */
  attemptSummary(
    scope: AuditScope,
    visible: (kind: string) => boolean,
    now = Date.now(),
  ): { summary?: AuditSummary; error?: ErrorBody } {
    const { value, error } = attempted(() => this.summary(scope, visible, now));
    return { summary: value, ...(error ? { error } : {}) };
  }

  /** `counts` as `attempt` runs `run`: nothing while pods load, `error` when the audit cannot run. */
  attemptCounts(scope: AuditScope, now = Date.now()): { counts?: AuditCounts; error?: ErrorBody } {
    const { value, error } = attempted(() => this.counts(scope, now));
    return { counts: value, ...(error ? { error } : {}) };
  }

  #findingsOf(object: KubeObject, context: () => AuditContext): Finding[] {
    const uid = object.metadata?.uid;
    const resourceVersion = object.metadata?.resourceVersion ?? '';
    const epoch = this.#epoch(object.metadata?.namespace);
    const memo = uid ? this.#memo.get(uid) : undefined;
    if (memo && memo.resourceVersion === resourceVersion && memo.epoch === epoch) return memo.findings;
    const findings = auditObject(object, context()).map(shared);
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

/**
 * The one copy of a finding: the pods of a workload, and most pods of a cluster, have the same findings word for
 * word, and the memo kept 14 of them per pod (140 000 objects and their message strings, 17 MB at 10 000 pods).
 * Findings are never mutated (`#judged` copies). Bounded: a table past its size starts again.
 */
const sharedFindings = new Map<string, Map<string, Finding[]>>();
const maxSharedFindings = 50_000;
let sharedCount = 0;
function shared(finding: Finding): Finding {
  if (sharedCount >= maxSharedFindings) {
    sharedFindings.clear();
    sharedCount = 0;
  }
  // Keyed by the finding's own strings (no key text of its own, which for a message naming its object would
  // cost as much as the copy it saves), then told apart by severity and container.
  let byMessage = sharedFindings.get(finding.checkId);
  if (!byMessage) {
    byMessage = new Map();
    sharedFindings.set(finding.checkId, byMessage);
  }
  const same = byMessage.get(finding.message);
  const known = same?.find((f) => f.severity === finding.severity && f.container === finding.container);
  if (known) return known;
  if (same) same.push(finding);
  else byMessage.set(finding.message, [finding]);
  sharedCount += 1;
  return finding;
}

/** Whether a namespace (undefined: cluster-scoped) is in scope: wanted, when the scope names some, and not ignored. */
function namespaceFilter(scope: AuditScope): (namespace: string | undefined) => boolean {
  const wanted = scope.namespaces ? new Set(scope.namespaces) : undefined;
  const ignored = new Set(scope.settings.ignoredNamespaces);
  return (namespace) => (namespace ? !ignored.has(namespace) && (!wanted || wanted.has(namespace)) : !wanted);
}

/** `work`'s value, or nothing while pods load, or the `{error, code}` of an AppError (the agent's 403, a failed list). */
function attempted<T>(work: () => T): { value?: T; error?: ErrorBody } {
  try {
    return { value: work() };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.code === 'not_ready' ? {} : { error: { error: error.message, code: error.code } };
  }
}

/** The informer cache as the audit's source: the audited kinds that are synced, every change as it happens. */
export function clusterAuditSource(cluster: Cluster): AuditSource {
  const audited = new Set(auditedKinds.map(([group, kind]) => `${group}/${kind}`));
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
      // Only the audited kinds: an Event in a namespace must not re-judge every object in it.
      cluster.cache.onEvent(({ object, resource, type }) => {
        if (audited.has(`${resource.group}/${resource.kind}`)) listener(object, type === 'deleted');
      });
    },
  };
}
