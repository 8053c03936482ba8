import type { KubeObject } from '@binnacle/common';
import { selectorMatcher } from '../../../kube/selectors.ts';
import type { GraphBuilder, ObjectRef } from '../graph-builder.ts';
import { list, ns, obj } from '../node-data.ts';

/**
 * The Service a destination host names, as Istio reads it: a short name in the object's namespace,
 * `<name>.<namespace>`, or `<name>.<namespace>.svc[.<cluster domain>]`. `definite` is false for the two-label form,
 * which may as well be an outside host (a ServiceEntry's): that one is not flagged when no Service has it.
 */
function serviceOfHost(
  host: string,
  namespace: string | undefined,
): { ref: ObjectRef; definite: boolean } | undefined {
  const labels = host.split('.');
  const [name = '', second, third] = labels;
  if (labels.length === 1) return { ref: { group: '', kind: 'Service', namespace, name }, definite: true };
  if (third === 'svc')
    return { ref: { group: '', kind: 'Service', namespace: second, name }, definite: true };
  if (labels.length === 2)
    return { ref: { group: '', kind: 'Service', namespace: second, name }, definite: false };
  return undefined;
}

/** The destinations of a VirtualService's http, tcp and tls routes. */
const destinations = (vs: KubeObject) =>
  ['http', 'tcp', 'tls'].flatMap((protocol) =>
    list(vs.spec?.[protocol]).flatMap((route) => list(route.route).map((r) => obj(r.destination))),
  );

function linkHost(
  graph: GraphBuilder,
  id: string,
  o: KubeObject,
  host: unknown,
  type: 'routes-to' | 'configures',
) {
  if (typeof host !== 'string' || host.includes('*')) return undefined;
  const service = serviceOfHost(host, ns(o));
  if (!service) return undefined;
  if (service.definite) return graph.reference(id, service.ref, type);
  const found = graph.find(service.ref);
  if (found) graph.addEdge(id, graph.addNode(found), type);
  return found;
}

/**
 * A VirtualService routes to its destination hosts' Services (flagged when a cluster-local host has none); a
 * DestinationRule configures its host's Service, and counts for each subset the pods its labels select among the
 * Service's.
 */
export function addIstio(graph: GraphBuilder): void {
  const group = 'networking.istio.io';
  for (const vs of graph.ofKind(group, 'VirtualService')) {
    const id = graph.addNode(vs);
    for (const destination of destinations(vs)) linkHost(graph, id, vs, destination.host, 'routes-to');
  }
  const rules = graph.ofKind(group, 'DestinationRule');
  const podsIn = new Map<string | undefined, KubeObject[]>();
  if (rules.length > 0)
    for (const pod of graph.of('Pod')) {
      const found = podsIn.get(ns(pod));
      if (found) found.push(pod);
      else podsIn.set(ns(pod), [pod]);
    }
  for (const rule of rules) {
    const id = graph.addNode(rule);
    const service = linkHost(graph, id, rule, rule.spec?.host, 'configures');
    const selector = obj(service?.spec?.selector) as Record<string, string>;
    const pods = service ? (podsIn.get(ns(service)) ?? []) : [];
    const node = graph.nodes.get(id);
    if (!node) continue;
    node.data.subsets = list(rule.spec?.subsets).map((subset) => {
      const labels = obj(subset.labels) as Record<string, string>;
      const matches = selectorMatcher({ matchLabels: { ...selector, ...labels } });
      const count =
        Object.keys(selector).length === 0 ? 0 : pods.filter((p) => matches(p.metadata?.labels)).length;
      return { name: subset.name, labels, pods: count };
    });
  }
}
