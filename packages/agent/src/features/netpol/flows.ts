import type { KubeObject } from '@binnacle/common';
import { mapSelectorMatcher } from '../../kube/selectors.ts';
import type { TrafficPair } from '../../scope/topology/traffic-edges.ts';
import { parseIp } from './cidr.ts';
import { type CompiledSnapshot, type Endpoint, obj, podEndpoint } from './compile.ts';
import { type Protocol, protocols } from './model.ts';

/** One end of an observed flow as the traffic feature names it (`deployment/shop/web`, `external/<ip>`, …). */
export interface FlowEnd {
  id: string;
  kind: string;
  name: string;
  namespace?: string;
  ip?: string;
}

/**
 * What names one flow of the impact (docs/adr/0122-policy-against-observed-traffic.md): a workload pair, a
 * protocol and a destination port.
 */
export interface FlowKey {
  source: FlowEnd;
  destination: FlowEnd;
  protocol: string;
  port?: number;
}

/** A flow left out of an answer, and why. */
export interface FlowLeftOut extends FlowKey {
  reason: string;
}

/** One flow of the impact, with how many flows were seen and how many of them the network already dropped. */
export interface ObservedFlow extends FlowKey {
  flows: number;
  /** Of them, the flows the source reports as dropped or in error. */
  dropped: number;
}

/** The pods behind each workload end (`deployment/shop/web` → its pods), as the agent's cache holds them now. */
export type WorkloadPods = ReadonlyMap<string, readonly KubeObject[]>;

/** A traffic pair's ports as flows of the impact; a pair with no port entry is one port-less flow. */
export function observedFlows(pairs: readonly TrafficPair[]): ObservedFlow[] {
  return pairs.flatMap((pair) => {
    // Metrics sources count verdicts per pair only: a port's flows count as dropped when all the pair's were.
    const allDropped = (pair.verdicts.dropped ?? 0) + (pair.verdicts.error ?? 0) >= pair.flows;
    const ports = pair.ports?.length ? pair.ports : [{ protocol: 'TCP', flows: pair.flows }];
    return ports.map((p: { protocol: string; port?: number; flows: number; dropped?: number }) => ({
      source: pair.source,
      destination: pair.destination,
      protocol: p.protocol.toUpperCase(),
      ...(p.port === undefined ? {} : { port: p.port }),
      flows: p.flows,
      dropped: p.dropped ?? (allDropped ? p.flows : 0),
    }));
  });
}

export const flowProtocol = (flow: ObservedFlow): Protocol | undefined =>
  protocols.find((p) => p === flow.protocol);

/** A pod's labels, host network and ports: pods alike in these are judged alike by every selector peer. */
const shapeOf = (pod: KubeObject) =>
  JSON.stringify([pod.metadata?.labels ?? {}, obj(pod.spec).hostNetwork === true, obj(pod.spec).containers]);

/** One pod per shape: a workload's replicas usually share one. */
function distinctPods(pods: readonly KubeObject[]): KubeObject[] {
  const seen = new Map<string, KubeObject>();
  for (const pod of pods) {
    const shape = shapeOf(pod);
    if (!seen.has(shape)) seen.set(shape, pod);
  }
  return [...seen.values()];
}

/** The pods a Service selects in its namespace (none without a selector). */
export function servicePods(service: KubeObject | undefined, pods: Iterable<KubeObject>): KubeObject[] {
  const selector = obj(service?.spec).selector;
  if (!service || !selector) return [];
  const selects = mapSelectorMatcher(selector as Record<string, string>);
  const namespace = service.metadata?.namespace;
  return [...pods].filter((pod) => pod.metadata?.namespace === namespace && selects(pod.metadata?.labels));
}

/** The pods an end stands for, for ends inside the cluster; undefined for the outside, a node or a hidden peer. */
export function podsOfEnd(
  end: FlowEnd,
  compiled: CompiledSnapshot,
  workloads: WorkloadPods,
): readonly KubeObject[] | undefined {
  if (!end.namespace || end.kind === 'Hidden') return undefined;
  if (end.kind === 'Service')
    return servicePods(compiled.services.get(`${end.namespace}/${end.name}`), compiled.pods.values());
  return workloads.get(end.id) ?? [];
}

/**
 * The endpoints the evaluator judges for one end: one pod per shape of a workload, or the address of the outside
 * world or a node (which only ipBlock peers match). A string says why the end cannot be judged.
 */
export function endpointsOf(
  end: FlowEnd,
  compiled: CompiledSnapshot,
  workloads: WorkloadPods,
): Endpoint[] | string {
  if (end.kind === 'Hidden') return 'one end is outside the namespaces you may see';
  const pods = podsOfEnd(end, compiled, workloads);
  if (pods) {
    if (pods.length === 0) return `${end.kind} ${end.namespace}/${end.name} has no pods now`;
    return distinctPods(pods).map((pod) => podEndpoint(pod, compiled));
  }
  const ip = end.ip ? parseIp(end.ip) : undefined;
  if (!ip) return `${end.kind} ${end.name} has no address the policies could match`;
  return [{ text: end.name, ips: [ip], hostNetwork: false, containerPorts: [] }];
}
