import {
  type EcosystemKind,
  groupOf,
  type KubeObject,
  topologyKindName,
  topologyNodeId,
} from '@binnacle/common';
import { type Health, healthOf } from '../../kube/health.ts';
import type { TopologyInput, TopologyKind, TopologyOptions } from './builder.ts';
import { ecosystemData } from './ecosystem/node-data.ts';
import { type EdgeType, nodeId, type TopologyEdge, type TopologyNode } from './model.ts';
import {
  controllerOf,
  dataOf,
  healthSummary,
  idOf,
  list,
  nameOf,
  ns,
  obj,
  qualified,
  readerSpec,
} from './node-data.ts';
import { appOf, maxExpandedPods, sharedLabels } from './pod-groups.ts';
import { podRefs } from './pod-refs.ts';

/** An object another names: by group and kind (`''` for the core group), in a namespace or cluster-scoped. */
export interface ObjectRef {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
}

const healthRank: Record<Health, number> = { unhealthy: 0, degraded: 1, unknown: 2, healthy: 3 };

/** Builds one graph: its nodes and edges so far, and how objects find their owners. */
export class GraphBuilder {
  readonly nodes = new Map<string, TopologyNode>();
  readonly edges = new Map<string, TopologyEdge>();
  readonly #byUid = new Map<string, KubeObject>();
  /** Every object given, by node id: what a reference by name finds (built on the first lookup). */
  #byIdMap?: Map<string, KubeObject>;
  readonly #input: TopologyInput;
  readonly #options: TopologyOptions;

  constructor(input: TopologyInput, options: TopologyOptions) {
    this.#input = input;
    this.#options = options;
    for (const objects of Object.values(input))
      for (const o of objects ?? []) if (o.metadata?.uid) this.#byUid.set(o.metadata.uid, o);
  }

  get #byId(): Map<string, KubeObject> {
    if (!this.#byIdMap) {
      this.#byIdMap = new Map();
      for (const objects of Object.values(this.#input))
        for (const o of objects ?? []) this.#byIdMap.set(idOf(o), o);
    }
    return this.#byIdMap;
  }

  of(kind: TopologyKind): KubeObject[] {
    return this.#input[kind] ?? [];
  }

  /** The objects of a kind named by group and kind (an ecosystem kind, or one a Crossplane XRD defines). */
  ofKind(group: string, kind: string): KubeObject[] {
    return this.#input[topologyKindName(group, kind)] ?? [];
  }

  /** Whether any object of a kind named `Kind.group` was given: an ecosystem kind, or one Crossplane defines. */
  get hasEcosystemObjects(): boolean {
    return Object.entries(this.#input).some(
      ([kind, objects]) => kind.includes('.') && (objects?.length ?? 0) > 0,
    );
  }

  /** The object a reference names, if it was given. */
  find(ref: ObjectRef): KubeObject | undefined {
    return this.#byId.get(topologyNodeId(ref.group, ref.kind, ref.namespace, ref.name));
  }

  /** The object drawn for a node id, if it is an object. */
  objectOf(id: string): KubeObject | undefined {
    return this.nodes.has(id) ? this.#byId.get(id) : undefined;
  }

  /** Whether the Secret a Certificate writes is drawn: the caller may read Secrets. */
  get drawsCertificateSecrets(): boolean {
    return this.#options.includeSecrets || this.#options.certificates === true;
  }

  /** Whether the Secrets workloads read are drawn (the caller asked for them). */
  get drawsSecrets(): boolean {
    return this.#options.includeSecrets;
  }

  /** A graph of some namespaces draws a cluster-scoped object only where one of theirs names it. */
  drawnAlone(o: KubeObject): boolean {
    return this.#options.namespaces === undefined || ns(o) !== undefined;
  }

  addNode(o: KubeObject, extra: Record<string, unknown> = {}): string {
    const id = idOf(o);
    if (!this.nodes.has(id)) {
      const named = qualified(o);
      this.nodes.set(id, {
        id,
        kind: o.kind ?? '',
        ...(named ? { group: groupOf(o.apiVersion) } : {}),
        namespace: ns(o),
        name: nameOf(o),
        status: healthOf(o),
        data: { ...(named ? ecosystemData(o) : dataOf(o)), ...extra },
      });
    }
    return id;
  }

  /** A node for every object of these kinds that is drawn on its own (ADR 0128). */
  addEcosystemObjects(kinds: readonly EcosystemKind[]): void {
    for (const k of kinds)
      for (const o of this.ofKind(k.group, k.kind)) if (this.drawnAlone(o)) this.addNode(o);
  }

  /**
   * An edge between `from`'s node and the object `to` names — `from` first unless `reversed`. When no such object
   * exists, the edge goes to a placeholder of it, flagged missing, and `from` says what it lacks: a route whose
   * backend Service is gone, a Certificate whose issuer is, read at a glance.
   */
  reference(
    from: string,
    to: ObjectRef,
    type: EdgeType,
    reversed = false,
    skipIfKindVisible?: string,
  ): KubeObject | undefined {
    const target = this.find(to);
    // A kind the graph was not given (not served, or not one it reads) says nothing of whether the object exists.
    if (!target && !Object.hasOwn(this.#input, topologyKindName(to.group, to.kind))) return undefined;
    const targetId = target ? this.addNode(target) : this.#placeholder(from, to);
    if (reversed) this.addEdge(targetId, from, type, skipIfKindVisible);
    else this.addEdge(from, targetId, type, skipIfKindVisible);
    return target;
  }

  /** Flags a node with a problem its own status does not show; it is degraded at best. */
  flag(id: string, problem: string): void {
    const node = this.nodes.get(id);
    if (!node) return;
    const problems = Array.isArray(node.data.problems) ? (node.data.problems as string[]) : [];
    if (!problems.includes(problem)) node.data.problems = [...problems, problem];
    if (healthRank[node.status] > healthRank.degraded) node.status = 'degraded';
  }

  #placeholder(from: string, to: ObjectRef): string {
    const id = topologyNodeId(to.group, to.kind, to.namespace, to.name);
    const named = `${to.kind} ${to.namespace ? `${to.namespace}/` : ''}${to.name}`;
    const referrer = this.nodes.get(from);
    if (!this.nodes.has(id))
      this.nodes.set(id, {
        id,
        kind: to.kind,
        ...(topologyKindName(to.group, to.kind) !== to.kind ? { group: to.group } : {}),
        ...(to.namespace ? { namespace: to.namespace } : {}),
        name: to.name,
        status: 'unhealthy',
        data: { missing: true, problems: [] },
      });
    const placeholder = this.nodes.get(id) as TopologyNode;
    if (referrer) {
      const by = `named by ${referrer.kind} ${referrer.namespace ? `${referrer.namespace}/` : ''}${referrer.name}`;
      placeholder.data.problems = [...(placeholder.data.problems as string[]), `does not exist; ${by}`];
      this.flag(from, `${named} does not exist`);
    }
    return id;
  }

  addEdge(source: string, target: string, type: EdgeType, skipIfKindVisible?: string): void {
    const id = `${source}-${type}-${target}`;
    if (source !== target && !this.edges.has(id))
      this.edges.set(id, { id, source, target, type, ...(skipIfKindVisible ? { skipIfKindVisible } : {}) });
  }

  /** Every object given, for passes over all of them. */
  objects(): KubeObject[] {
    return [...this.#byId.values()];
  }

  owner(o: KubeObject): KubeObject | undefined {
    const ref = controllerOf(o);
    return ref ? this.#byUid.get(ref.uid) : undefined;
  }

  /** ReplicaSets of Deployments are hidden unless asked for. */
  hiddenReplicaSet(rs: KubeObject): boolean {
    return !this.#options.includeReplicaSets && this.owner(rs)?.kind === 'Deployment';
  }

  /** Workloads that own pods through a template, each under the Deployment or CronJob that owns it. */
  addWorkloads(): KubeObject[] {
    const templated: KubeObject[] = [];
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'CronJob'] as const)
      for (const o of this.of(kind)) templated.push(o);
    for (const rs of this.of('ReplicaSet')) {
      const parent = this.owner(rs);
      if (this.hiddenReplicaSet(rs)) continue;
      // Old ReplicaSets of a rollout (scaled to zero) would only clutter the graph.
      if (parent && Number(rs.spec?.replicas ?? 0) === 0) continue;
      templated.push(rs);
    }
    for (const job of this.of('Job')) templated.push(job);
    for (const w of templated) {
      this.addNode(w);
      const parent = this.owner(w);
      if (parent && (parent.kind === 'Deployment' || parent.kind === 'CronJob'))
        this.addEdge(idOf(parent), idOf(w), 'manages');
    }
    return templated;
  }

  /**
   * Pods under the nearest owner that is shown, grouped above the threshold unless their group is expanded.
   * Answers what reads on behalf of pods without an owner: each such pod, or, for a group of them, one stand-in
   * with the group's id, the first pod's spec and the labels all of them share.
   */
  addPods(): KubeObject[] {
    const podsByOwner = new Map<string, KubeObject[]>();
    const bareByApp = new Map<string, KubeObject[]>();
    for (const pod of this.of('Pod')) {
      let parent = this.owner(pod);
      if (parent?.kind === 'ReplicaSet' && this.hiddenReplicaSet(parent))
        parent = this.owner(parent) ?? parent;
      const [groups, key] =
        parent && this.nodes.has(idOf(parent))
          ? [podsByOwner, idOf(parent)]
          : [bareByApp, `${ns(pod) ?? ''}\u0000${appOf(pod) ?? ''}`];
      const members = groups.get(key);
      if (members) members.push(pod);
      else groups.set(key, [pod]);
    }
    for (const [ownerId, pods] of podsByOwner) {
      const owner = this.nodes.get(ownerId) as TopologyNode;
      const groupId = nodeId('PodGroup', owner.namespace, `${owner.kind.toLowerCase()}-${owner.name}`);
      if (this.#grouped(groupId, pods)) {
        this.addPodGroup(groupId, `${owner.name} pods`, pods);
        this.addEdge(ownerId, groupId, 'manages');
      } else for (const pod of pods) this.addOwnedPod(ownerId, pod);
    }
    const readers: KubeObject[] = [];
    for (const pods of bareByApp.values()) {
      const first = pods[0] as KubeObject;
      const app = appOf(first);
      const groupName = app ? `app-${app}` : 'without-owner';
      const groupId = nodeId('PodGroup', ns(first), groupName);
      if (!this.#grouped(groupId, pods)) {
        for (const pod of pods) this.addNode(pod);
        readers.push(...pods);
        continue;
      }
      this.addPodGroup(groupId, app ? `${app} pods` : 'pods without an owner', pods);
      readers.push({
        kind: 'PodGroup',
        metadata: { namespace: ns(first), name: groupName, labels: sharedLabels(pods) },
        spec: first.spec,
      });
    }
    return readers;
  }

  #grouped(groupId: string, pods: KubeObject[]): boolean {
    if (pods.length <= this.#options.maxIndividualPods) return false;
    return pods.length > maxExpandedPods || !this.#options.expand.includes(groupId);
  }

  /** Many pods become one PodGroup node counting their health; `expand` shows them one by one. */
  addPodGroup(groupId: string, name: string, pods: KubeObject[]): void {
    const { counts, status } = healthSummary(pods);
    this.nodes.set(groupId, {
      id: groupId,
      kind: 'PodGroup',
      namespace: ns(pods[0] as KubeObject),
      name,
      status,
      data: { count: pods.length, ...counts, expandable: pods.length <= maxExpandedPods },
    });
  }

  addOwnedPod(ownerId: string, pod: KubeObject): void {
    this.addNode(pod);
    this.addEdge(ownerId, idOf(pod), 'manages');
    const rs = this.owner(pod);
    const deployment = rs?.kind === 'ReplicaSet' ? this.owner(rs) : undefined;
    if (this.#options.includeReplicaSets && deployment?.kind === 'Deployment')
      this.addEdge(idOf(deployment), idOf(pod), 'manages', 'ReplicaSet');
  }

  byName(kind: TopologyKind, namespace: string | undefined): Map<string, KubeObject> {
    return new Map(
      this.of(kind)
        .filter((o) => ns(o) === namespace)
        .map((o) => [nameOf(o), o]),
    );
  }

  /** What a workload's pod spec reads: ConfigMaps, Secrets (when asked for) and PersistentVolumeClaims. */
  addReads(w: KubeObject): void {
    const refs = podRefs(readerSpec(w));
    const configMaps = this.byName('ConfigMap', ns(w));
    for (const name of refs.configMaps) {
      const cm = configMaps.get(name);
      if (cm) this.addEdge(this.addNode(cm), idOf(w), 'configures');
    }
    if (this.#options.includeSecrets) {
      const secrets = this.byName('Secret', ns(w));
      for (const name of refs.secrets) {
        const secret = secrets.get(name);
        if (secret) this.addEdge(this.addNode(secret), idOf(w), 'configures');
      }
    }
    const claims = this.byName('PersistentVolumeClaim', ns(w));
    for (const name of refs.claims) {
      const pvc = claims.get(name);
      if (pvc) this.addEdge(this.addNode(pvc), idOf(w), 'uses');
    }
    if (w.kind === 'StatefulSet') {
      for (const tpl of list(w.spec?.volumeClaimTemplates)) {
        const prefix = `${String(obj(tpl.metadata).name)}-${nameOf(w)}-`;
        for (const [name, pvc] of claims)
          if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
            this.addEdge(this.addNode(pvc), idOf(w), 'uses');
      }
    }
  }
}
