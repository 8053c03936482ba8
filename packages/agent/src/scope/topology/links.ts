import type { KubeObject } from '@binnacle/common';
import { selectorMatcher } from '../../kube/selectors.ts';
import { applicationRefs, appliedBy, inventoryRefs, type ManagedRef } from '../gitops/managed.ts';
import type { GraphBuilder } from './graph-builder.ts';
import { nodeId } from './model.ts';
import { idOf, list, ns, obj, readerLabels } from './node-data.ts';

/*
 * The passes that link the objects drawn once workloads, pods and what they read are: Services to the workloads
 * they expose, Ingresses and Gateway routes to their Services, autoscalers and disruption budgets to their
 * workloads, GitOps objects to what they applied (docs/topology.md).
 */

const gatewayGroup = 'gateway.networking.k8s.io';

/** Services expose the workloads whose pod labels their selector matches. */
export function addServices(graph: GraphBuilder, readers: KubeObject[]): void {
  for (const svc of graph.of('Service')) {
    const selector = obj(svc.spec?.selector) as Record<string, string>;
    const svcId = graph.addNode(svc);
    if (Object.keys(selector).length === 0) continue;
    const matches = selectorMatcher({ matchLabels: selector });
    for (const w of readers)
      if (ns(w) === ns(svc) && w.kind !== 'CronJob' && matches(readerLabels(w)))
        graph.addEdge(svcId, idOf(w), 'exposes');
  }
}

/** Ingresses and Gateway routes send traffic to Services. */
export function addRoutes(graph: GraphBuilder): void {
  for (const ing of graph.of('Ingress')) {
    const ingId = graph.addNode(ing);
    const services = graph.byName('Service', ns(ing));
    const backends = [
      obj(ing.spec?.defaultBackend),
      ...list(ing.spec?.rules).flatMap((r) => list(obj(r.http).paths).map((p) => obj(p.backend))),
    ];
    for (const backend of backends) {
      const svc = services.get(String(obj(backend.service).name));
      if (svc) graph.addEdge(ingId, idOf(svc), 'routes-to');
    }
  }
  for (const kind of ['HTTPRoute', 'GRPCRoute'] as const)
    for (const route of graph.of(kind)) addGatewayRoute(graph, route);
}

/**
 * A Gateway route hangs under its Gateways and sends traffic to its backend Services; a backend that does not
 * exist, or sits in another namespace no ReferenceGrant opens to the route, is flagged on the route.
 */
function addGatewayRoute(graph: GraphBuilder, route: KubeObject): void {
  const routeId = graph.addNode(route);
  for (const parent of list(route.spec?.parentRefs)) {
    if (parent.kind !== undefined && parent.kind !== 'Gateway') continue;
    const namespace = String(parent.namespace ?? ns(route));
    graph.reference(
      routeId,
      { group: gatewayGroup, kind: 'Gateway', namespace, name: String(parent.name) },
      'routes-to',
      true,
    );
  }
  for (const rule of list(route.spec?.rules)) {
    for (const ref of list(rule.backendRefs)) {
      if ((ref.kind !== undefined && ref.kind !== 'Service') || (ref.group ?? '') !== '') continue;
      const namespace = String(ref.namespace ?? ns(route));
      const name = String(ref.name);
      graph.reference(routeId, { group: '', kind: 'Service', namespace, name }, 'routes-to');
      if (namespace === ns(route)) continue;
      const grant = grantFor(graph, route, namespace, name);
      if (grant) graph.addEdge(graph.addNode(grant), routeId, 'configures');
      else
        graph.flag(
          routeId,
          `no ReferenceGrant in ${namespace} lets it send traffic to Service ${namespace}/${name}`,
        );
    }
  }
}

/** The ReferenceGrant in the backend's namespace that lets this route's kind and namespace name the Service. */
function grantFor(
  graph: GraphBuilder,
  route: KubeObject,
  namespace: string,
  name: string,
): KubeObject | undefined {
  return graph
    .ofKind(gatewayGroup, 'ReferenceGrant')
    .find(
      (grant) =>
        ns(grant) === namespace &&
        list(grant.spec?.from).some(
          (from) => from.group === gatewayGroup && from.kind === route.kind && from.namespace === ns(route),
        ) &&
        list(grant.spec?.to).some(
          (to) =>
            (to.group ?? '') === '' && to.kind === 'Service' && (to.name === undefined || to.name === name),
        ),
    );
}

/** Autoscalers use their scale target; disruption budgets protect the workloads their selector matches. */
export function addPolicies(graph: GraphBuilder, readers: KubeObject[]): void {
  for (const hpa of graph.of('HorizontalPodAutoscaler')) {
    const target = obj(hpa.spec?.scaleTargetRef);
    const workload = [...graph.nodes.values()].find(
      (n) => n.kind === target.kind && n.name === target.name && n.namespace === ns(hpa),
    );
    if (workload) graph.addEdge(graph.addNode(hpa), workload.id, 'uses');
  }
  for (const pdb of graph.of('PodDisruptionBudget')) {
    const matches = selectorMatcher(pdb.spec?.selector as Parameters<typeof selectorMatcher>[0]);
    const targets = readers.filter(
      (w) => ns(w) === ns(pdb) && w.kind !== 'CronJob' && matches(readerLabels(w)),
    );
    if (targets.length === 0) continue;
    const pdbId = graph.addNode(pdb);
    for (const w of targets) graph.addEdge(pdbId, idOf(w), 'protects');
  }
}

/**
 * GitOps objects manage what they applied: an Argo CD Application what its `status.resources` lists, a
 * Kustomization its inventory, and a Kustomization or HelmRelease every object carrying the labels its Flux
 * controller puts on what it applies. Applied objects the graph does not show yet (a ConfigMap nothing reads)
 * join it; kinds the topology does not draw are left out.
 */
export function addGitOps(graph: GraphBuilder): void {
  const objects = graph.objects();
  const byId = new Map(objects.map((o) => [idOf(o), o]));
  const link = (from: KubeObject, target: KubeObject | undefined) => {
    if (!target || (target.kind === 'ReplicaSet' && graph.hiddenReplicaSet(target))) return;
    if (target.kind === 'Secret' && !graph.drawsSecrets) return;
    graph.addEdge(graph.addNode(from), graph.addNode(target), 'manages');
  };
  const find = (ref: ManagedRef) => byId.get(nodeId(ref.kind, ref.namespace, ref.name));
  for (const kind of ['Application', 'Kustomization', 'HelmRelease'] as const)
    for (const o of graph.of(kind)) graph.addNode(o);
  for (const app of graph.of('Application')) for (const ref of applicationRefs(app)) link(app, find(ref));
  for (const kustomization of graph.of('Kustomization'))
    for (const ref of inventoryRefs(kustomization)) link(kustomization, find(ref));
  for (const o of objects)
    for (const by of appliedBy(o)) {
      const owner = byId.get(nodeId(by.kind, by.namespace, by.name));
      if (owner) link(owner, o);
    }
}
