import type { KubeObject } from '@binnacle/common';
import {
  type CompiledRule,
  checkPortNumber,
  checkProtocol,
  compileSnapshot,
  type Endpoint,
  podAt,
  selectingPolicies,
} from './compile.ts';
import { bothDirections, type DirectionOutcome, firstPeer, openEndToEnd } from './direction.ts';
import type { ClusterSnapshot, MatrixCell, MatrixOptions, ObjectRef, ReachabilityMatrix } from './model.ts';
import { allPorts, overlaps, type PortSet, portRange } from './ports.ts';

const unique = (items: string[]) => [...new Set(items)];

function cellOf(egress: DirectionOutcome, ingress: DirectionOutcome, asked: PortSet): MatrixCell {
  const open = openEndToEnd(egress, ingress, asked);
  const egressOpen = overlaps(egress.open, asked);
  const ingressOpen = overlaps(ingress.open, asked);
  const policies =
    open.length > 0
      ? [...egress.contributions, ...ingress.contributions]
          .filter((c) => overlaps(c.ports, open))
          .map((c) => c.ref.policy)
      : [...(egressOpen ? [] : egress.policies), ...(ingressOpen ? [] : ingress.policies)];
  return { allowed: open.length > 0, egress: egressOpen, ingress: ingressOpen, policies: unique(policies) };
}

/**
 * Reachability between every pair of the given pods (rows are sources, columns destinations), with the same
 * semantics as evaluateConnection. Which policies select each pod is worked out once per pod and whether a
 * rule's peers match a pod once per rule and pod, so a cell costs one cheap pass over the rules of the
 * policies selecting its two pods.
 */
export function podReachabilityMatrix(
  snapshot: ClusterSnapshot,
  pods: readonly ObjectRef[],
  options: MatrixOptions = {},
): ReachabilityMatrix {
  const compiled = compileSnapshot(snapshot);
  const protocol = checkProtocol(options.protocol ?? 'TCP', 'protocol');
  const port = options.port === undefined ? undefined : checkPortNumber(options.port, 'port');
  const asked = port === undefined ? allPorts : portRange(port);
  const endpoints: Endpoint[] = pods.map((ref, i) => podAt(compiled, ref, `pods[${i}]`));
  const ingressPolicies = endpoints.map((e) => selectingPolicies(compiled, e, 'ingress'));
  const egressPolicies = endpoints.map((e) => selectingPolicies(compiled, e, 'egress'));
  const unknown = -2;
  const peers = new Map<CompiledRule, Int32Array>();
  const peerOf = (rule: CompiledRule, pod: number) => {
    let row = peers.get(rule);
    if (!row) {
      row = new Int32Array(endpoints.length).fill(unknown);
      peers.set(rule, row);
    }
    if (row[pod] === unknown) row[pod] = firstPeer(rule, endpoints[pod] as Endpoint);
    return row[pod] as number;
  };
  const cells = endpoints.map((source, s) =>
    endpoints.map((destination, d) => {
      const policies = { egress: egressPolicies[s] ?? [], ingress: ingressPolicies[d] ?? [] };
      const parties = { source, destination, protocol };
      const { egress, ingress } = bothDirections(parties, policies, (rule, peer) =>
        peerOf(rule, peer === 'source' ? s : d),
      );
      return cellOf(egress, ingress, asked);
    }),
  );
  return { pods: endpoints.map((e) => e.text), port: port ?? 'any', protocol, cells };
}

/** Every pod of a namespace (by name) to every pod of it. */
export function reachabilityMatrix(
  snapshot: ClusterSnapshot,
  namespace: string,
  options: MatrixOptions = {},
): ReachabilityMatrix {
  const pods = snapshot.pods
    .filter((pod: KubeObject) => pod.metadata?.namespace === namespace)
    .map((pod) => ({ namespace, name: pod.metadata?.name ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return podReachabilityMatrix(snapshot, pods, options);
}
