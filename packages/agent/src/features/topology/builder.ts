import { type Health, healthOf } from '../../kube/health.ts';
import type { KubeObject } from '../../kube/objects.ts';
import { selectorMatcher } from '../../kube/selectors.ts';
import { type EdgeType, nodeId, type Topology, type TopologyEdge, type TopologyNode } from './model.ts';
import { podRefs } from './pod-refs.ts';

export const topologyKinds = [
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Pod',
  'Service',
  'Ingress',
  'ConfigMap',
  'Secret',
  'PersistentVolumeClaim',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'Gateway',
  'HTTPRoute',
  'GRPCRoute',
] as const;
export type TopologyKind = (typeof topologyKinds)[number];
export type TopologyInput = Partial<Record<TopologyKind, KubeObject[]>>;

export interface TopologyOptions {
  /** Show ReplicaSets between Deployments and Pods (default off: Deployment→Pod edges instead). */
  includeReplicaSets: boolean;
  /** Show the Secrets workloads read (default off; ConfigMaps are always shown). */
  includeSecrets: boolean;
  /** Above this many pods under one owner, they become one PodGroup node. */
  maxIndividualPods: number;
}

export const defaultTopologyOptions: TopologyOptions = {
  includeReplicaSets: false,
  includeSecrets: false,
  maxIndividualPods: 5,
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const ns = (o: KubeObject) => o.metadata?.namespace;
const nameOf = (o: KubeObject) => o.metadata?.name ?? '';
const idOf = (o: KubeObject) => nodeId(o.kind ?? '', ns(o), nameOf(o));
const controllerOf = (o: KubeObject) =>
  o.metadata?.ownerReferences?.find((r) => r.controller) ?? o.metadata?.ownerReferences?.[0];

/** The pod template of a workload (CronJobs keep theirs inside the job template). */
function template(o: KubeObject): Obj {
  if (o.kind === 'CronJob') return obj(obj(obj(o.spec?.jobTemplate).spec).template);
  return obj(o.spec?.template);
}

function dataOf(o: KubeObject): Record<string, unknown> {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const images = list(obj(template(o).spec).containers).map((c) => c.image);
  switch (o.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return { replicas: spec.replicas ?? 1, ready: status.readyReplicas ?? 0, images };
    case 'DaemonSet':
      return { desired: status.desiredNumberScheduled ?? 0, ready: status.numberReady ?? 0, images };
    case 'CronJob':
      return { schedule: spec.schedule, suspend: spec.suspend ?? false, images };
    case 'Job':
      return { succeeded: status.succeeded ?? 0, failed: status.failed ?? 0, active: status.active ?? 0 };
    case 'Pod':
      return {
        phase: status.phase,
        node: spec.nodeName,
        restarts: list(status.containerStatuses).reduce((sum, c) => sum + Number(c.restartCount ?? 0), 0),
        images: list(spec.containers).map((c) => c.image),
      };
    case 'Service':
      return {
        type: spec.type ?? 'ClusterIP',
        clusterIP: spec.clusterIP,
        ports: list(spec.ports).map((p) => p.port),
      };
    case 'Ingress':
      return {
        hosts: list(spec.rules)
          .map((r) => r.host)
          .filter(Boolean),
        className: spec.ingressClassName,
      };
    case 'ConfigMap':
    case 'Secret':
      return { keys: Object.keys(obj(o.data)).length };
    case 'PersistentVolumeClaim':
      return {
        phase: status.phase,
        storage: obj(obj(spec.resources).requests).storage,
        storageClass: spec.storageClassName,
      };
    case 'HorizontalPodAutoscaler':
      return { min: spec.minReplicas ?? 1, max: spec.maxReplicas, current: status.currentReplicas };
    default:
      return {};
  }
}

/**
 * Builds the graph: nodes for workloads, pods (grouped above a threshold), services, routes and what
 * workloads read, and typed edges — manages (owner references), exposes (Service selectors), routes-to
 * (Ingress and Gateway routes), configures (ConfigMaps/Secrets in env, envFrom, volumes), uses (claims, HPA
 * targets), protects (PDBs). A pure function of the objects it is given.
 */
export function buildTopology(
  input: TopologyInput,
  options: TopologyOptions = defaultTopologyOptions,
): Topology {
  const nodes = new Map<string, TopologyNode>();
  const edges = new Map<string, TopologyEdge>();
  const byUid = new Map<string, KubeObject>();
  for (const objects of Object.values(input))
    for (const o of objects ?? []) if (o.metadata?.uid) byUid.set(o.metadata.uid, o);
  const of = (kind: TopologyKind) => input[kind] ?? [];

  const addNode = (o: KubeObject, extra: Record<string, unknown> = {}) => {
    const id = idOf(o);
    if (!nodes.has(id))
      nodes.set(id, {
        id,
        kind: o.kind ?? '',
        namespace: ns(o),
        name: nameOf(o),
        status: healthOf(o),
        data: { ...dataOf(o), ...extra },
      });
    return id;
  };
  const addEdge = (source: string, target: string, type: EdgeType, skipIfKindVisible?: string) => {
    const id = `${source}-${type}-${target}`;
    if (source !== target && !edges.has(id))
      edges.set(id, { id, source, target, type, ...(skipIfKindVisible ? { skipIfKindVisible } : {}) });
  };
  const owner = (o: KubeObject) => {
    const ref = controllerOf(o);
    return ref ? byUid.get(ref.uid) : undefined;
  };

  // Workloads that own pods through a template; ReplicaSets of Deployments are hidden unless asked for.
  const hiddenReplicaSet = (rs: KubeObject) =>
    !options.includeReplicaSets && owner(rs)?.kind === 'Deployment';
  const templated: KubeObject[] = [];
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'CronJob'] as const)
    for (const o of of(kind)) templated.push(o);
  for (const rs of of('ReplicaSet')) {
    const parent = owner(rs);
    if (hiddenReplicaSet(rs)) continue;
    // Old ReplicaSets of a rollout (scaled to zero) would only clutter the graph.
    if (parent && Number(rs.spec?.replicas ?? 0) === 0) continue;
    templated.push(rs);
  }
  for (const job of of('Job')) templated.push(job);
  for (const w of templated) {
    addNode(w);
    const parent = owner(w);
    if (parent && (parent.kind === 'Deployment' || parent.kind === 'CronJob'))
      addEdge(idOf(parent), idOf(w), 'manages');
  }

  // Pods, under the nearest owner that is shown; many pods under one owner become a PodGroup.
  const podsByOwner = new Map<string, KubeObject[]>();
  const bare: KubeObject[] = [];
  for (const pod of of('Pod')) {
    let parent = owner(pod);
    if (parent?.kind === 'ReplicaSet' && hiddenReplicaSet(parent)) parent = owner(parent) ?? parent;
    if (!parent || !nodes.has(idOf(parent))) {
      bare.push(pod);
      continue;
    }
    const key = idOf(parent);
    podsByOwner.set(key, [...(podsByOwner.get(key) ?? []), pod]);
  }
  for (const [ownerId, pods] of podsByOwner) {
    const parentNode = nodes.get(ownerId) as TopologyNode;
    if (pods.length > options.maxIndividualPods) {
      const counts: Record<Health, number> = { healthy: 0, degraded: 0, unhealthy: 0, unknown: 0 };
      for (const pod of pods) counts[healthOf(pod)] += 1;
      const groupId = nodeId(
        'PodGroup',
        parentNode.namespace,
        `${parentNode.kind.toLowerCase()}-${parentNode.name}`,
      );
      const status: Health =
        counts.unhealthy > 0 ? 'unhealthy' : counts.degraded > 0 ? 'degraded' : 'healthy';
      nodes.set(groupId, {
        id: groupId,
        kind: 'PodGroup',
        namespace: parentNode.namespace,
        name: `${parentNode.name} pods`,
        status,
        data: { count: pods.length, ...counts },
      });
      addEdge(ownerId, groupId, 'manages');
      continue;
    }
    for (const pod of pods) {
      addNode(pod);
      addEdge(ownerId, idOf(pod), 'manages');
      const rs = owner(pod);
      const deployment = rs?.kind === 'ReplicaSet' ? owner(rs) : undefined;
      if (options.includeReplicaSets && deployment?.kind === 'Deployment')
        addEdge(idOf(deployment), idOf(pod), 'manages', 'ReplicaSet');
    }
  }
  for (const pod of bare) addNode(pod);

  // What reads what: the top-level workloads (and bare pods) with their pod specs.
  const readers = [
    ...templated.filter((w) => !owner(w) || !nodes.has(idOf(owner(w) as KubeObject))),
    ...bare,
  ];
  const readerSpec = (w: KubeObject) => (w.kind === 'Pod' ? w.spec : template(w).spec);
  const readerLabels = (w: KubeObject) =>
    w.kind === 'Pod'
      ? w.metadata?.labels
      : (obj(template(w).metadata).labels as Record<string, string> | undefined);
  const byName = (kind: TopologyKind, namespace: string | undefined) =>
    new Map(
      of(kind)
        .filter((o) => ns(o) === namespace)
        .map((o) => [nameOf(o), o]),
    );

  for (const w of readers) {
    const refs = podRefs(readerSpec(w));
    const configMaps = byName('ConfigMap', ns(w));
    for (const name of refs.configMaps) {
      const cm = configMaps.get(name);
      if (cm) addEdge(addNode(cm), idOf(w), 'configures');
    }
    if (options.includeSecrets) {
      const secrets = byName('Secret', ns(w));
      for (const name of refs.secrets) {
        const secret = secrets.get(name);
        if (secret) addEdge(addNode(secret), idOf(w), 'configures');
      }
    }
    const claims = byName('PersistentVolumeClaim', ns(w));
    for (const name of refs.claims) {
      const pvc = claims.get(name);
      if (pvc) addEdge(addNode(pvc), idOf(w), 'uses');
    }
    if (w.kind === 'StatefulSet') {
      for (const tpl of list(w.spec?.volumeClaimTemplates)) {
        const prefix = `${String(obj(tpl.metadata).name)}-${nameOf(w)}-`;
        for (const [name, pvc] of claims)
          if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
            addEdge(addNode(pvc), idOf(w), 'uses');
      }
    }
  }

  // Services expose the workloads whose pod labels their selector matches.
  for (const svc of of('Service')) {
    const selector = obj(svc.spec?.selector) as Record<string, string>;
    const svcId = addNode(svc);
    if (Object.keys(selector).length === 0) continue;
    const matches = selectorMatcher({ matchLabels: selector });
    for (const w of readers)
      if (ns(w) === ns(svc) && w.kind !== 'CronJob' && matches(readerLabels(w)))
        addEdge(svcId, idOf(w), 'exposes');
  }

  // Ingresses and Gateway routes send traffic to Services.
  for (const ing of of('Ingress')) {
    const ingId = addNode(ing);
    const services = byName('Service', ns(ing));
    const backends = [
      obj(ing.spec?.defaultBackend),
      ...list(ing.spec?.rules).flatMap((r) => list(obj(r.http).paths).map((p) => obj(p.backend))),
    ];
    for (const backend of backends) {
      const svc = services.get(String(obj(backend.service).name));
      if (svc) addEdge(ingId, idOf(svc), 'routes-to');
    }
  }
  for (const kind of ['HTTPRoute', 'GRPCRoute'] as const) {
    for (const route of of(kind)) {
      const routeId = addNode(route);
      for (const parent of list(route.spec?.parentRefs)) {
        const gateway = byName('Gateway', String(parent.namespace ?? ns(route))).get(String(parent.name));
        if (gateway && (parent.kind === undefined || parent.kind === 'Gateway'))
          addEdge(addNode(gateway), routeId, 'routes-to');
      }
      for (const rule of list(route.spec?.rules)) {
        for (const ref of list(rule.backendRefs)) {
          if (ref.kind !== undefined && ref.kind !== 'Service') continue;
          const svc = byName('Service', String(ref.namespace ?? ns(route))).get(String(ref.name));
          if (svc) addEdge(routeId, idOf(svc), 'routes-to');
        }
      }
    }
  }

  // Autoscalers use their scale target; disruption budgets protect the workloads their selector matches.
  for (const hpa of of('HorizontalPodAutoscaler')) {
    const target = obj(hpa.spec?.scaleTargetRef);
    const workload = [...nodes.values()].find(
      (n) => n.kind === target.kind && n.name === target.name && n.namespace === ns(hpa),
    );
    if (workload) addEdge(addNode(hpa), workload.id, 'uses');
  }
  for (const pdb of of('PodDisruptionBudget')) {
    const matches = selectorMatcher(pdb.spec?.selector as Parameters<typeof selectorMatcher>[0]);
    const targets = readers.filter(
      (w) => ns(w) === ns(pdb) && w.kind !== 'CronJob' && matches(readerLabels(w)),
    );
    if (targets.length > 0) {
      const pdbId = addNode(pdb);
      for (const w of targets) addEdge(pdbId, idOf(w), 'protects');
    }
  }

  return { nodes: [...nodes.values()], edges: [...edges.values()], warnings: [] };
}
