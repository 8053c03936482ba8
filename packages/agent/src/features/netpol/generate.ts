import type { KubeObject } from '@binnacle/common';
import type { CompiledSnapshot } from './compile.ts';
import { obj } from './compile.ts';
import {
  type FlowEnd,
  type FlowLeftOut,
  flowProtocol,
  type ObservedFlow,
  podsOfEnd,
  type WorkloadPods,
} from './flows.ts';

/**
 * Labels a controller sets per pod or per revision: a selector on them would stop matching at the next rollout
 * (docs/adr/0122-policy-against-observed-traffic.md).
 */
const unstableLabels = new Set([
  'pod-template-hash',
  'controller-revision-hash',
  'pod-template-generation',
  'statefulset.kubernetes.io/pod-name',
  'apps.kubernetes.io/pod-index',
  'batch.kubernetes.io/controller-uid',
  'batch.kubernetes.io/job-name',
  'controller-uid',
  'job-name',
]);

/** The labels every pod of a workload carries, the unstable ones left out; empty when they share none. */
export function stableLabels(pods: readonly KubeObject[]): Record<string, string> {
  const [first, ...rest] = pods;
  const labels = { ...(first?.metadata?.labels ?? {}) };
  for (const key of Object.keys(labels))
    if (unstableLabels.has(key) || rest.some((pod) => pod.metadata?.labels?.[key] !== labels[key]))
      delete labels[key];
  return labels;
}

type Peer = Record<string, unknown>;
type PortEntry = { protocol: string; port?: number };

export interface Proposal {
  namespace: string;
  policies: KubeObject[];
  /** Observed flows the proposal does not allow, and why (only dropped, an end that cannot be selected). */
  skipped: FlowLeftOut[];
  /** Workloads of the namespace no policy is proposed for: their pods share no stable label. */
  unselectable: string[];
}

const namespaceName = 'kubernetes.io/metadata.name';

/** How a rule names the other end: its pods' stable labels (and namespace), or its address; a string says why not. */
function peerOf(
  end: FlowEnd,
  namespace: string,
  compiled: CompiledSnapshot,
  workloads: WorkloadPods,
): Peer | string {
  const pods = podsOfEnd(end, compiled, workloads);
  if (pods === undefined) {
    if (end.kind === 'Hidden') return 'the other end is outside the namespaces you may see';
    if (!end.ip) return `${end.kind} ${end.name} has no address to allow`;
    return { ipBlock: { cidr: `${end.ip}/${end.ip.includes(':') ? 128 : 32}` } };
  }
  if (pods.length === 0) return `${end.kind} ${end.namespace}/${end.name} has no pods now`;
  if (pods.some((pod) => obj(pod.spec).hostNetwork === true))
    return `${end.kind} ${end.namespace}/${end.name} uses the host network, which selectors do not match`;
  const labels = stableLabels(pods);
  if (Object.keys(labels).length === 0)
    return `the pods of ${end.id} share no stable label to select them by`;
  return {
    podSelector: { matchLabels: labels },
    ...(end.namespace === namespace
      ? {}
      : { namespaceSelector: { matchLabels: { [namespaceName]: end.namespace } } }),
  };
}

/** A rule's ports: every port seen per protocol, or the whole protocol when a flow of it came without a port. */
function portsOf(entries: readonly PortEntry[]): PortEntry[] {
  const whole = new Set(entries.filter((e) => e.port === undefined).map((e) => e.protocol));
  const kept = new Map<string, PortEntry>();
  for (const entry of entries) {
    const port = whole.has(entry.protocol) ? undefined : entry.port;
    kept.set(`${entry.protocol}/${port ?? ''}`, {
      protocol: entry.protocol,
      ...(port === undefined ? {} : { port }),
    });
  }
  return [...kept.values()].sort(
    (a, b) => a.protocol.localeCompare(b.protocol) || (a.port ?? 0) - (b.port ?? 0),
  );
}

/** Rules of one direction: one per peer, with the ports seen towards it, in a stable order. */
function rulesOf(byPeer: Map<string, { peer: Peer; ports: PortEntry[] }>, peerKey: 'from' | 'to') {
  return [...byPeer.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, { peer, ports }]) => ({ [peerKey]: [peer], ports: portsOf(ports) }));
}

const policyName = (id: string) =>
  `allow-observed-${id
    .split('/')
    .filter((_, i) => i !== 1)
    .join('-')}`.slice(0, 253);

/**
 * NetworkPolicies allowing exactly the observed flows of a namespace's workloads (docs/adr/0122-…): one policy
 * per workload, selecting its pods by their stable labels, isolating both directions, with an ingress rule per
 * peer that called it and an egress rule per peer it called, each with the ports seen. Flows the network only
 * dropped are not allowed; ends a rule cannot name are listed as skipped.
 */
export function proposePolicies(
  namespace: string,
  flows: readonly ObservedFlow[],
  compiled: CompiledSnapshot,
  workloads: WorkloadPods,
  chosen?: ReadonlySet<string>,
): Proposal {
  const targets = [...workloads]
    .filter(([id, pods]) => pods[0]?.metadata?.namespace === namespace && (!chosen || chosen.has(id)))
    .sort(([a], [b]) => a.localeCompare(b));
  const selectors = new Map<string, Record<string, string>>();
  const unselectable: string[] = [];
  for (const [id, pods] of targets) {
    const labels = stableLabels(pods);
    if (Object.keys(labels).length > 0) selectors.set(id, labels);
    else unselectable.push(id);
  }
  const rules = new Map(
    [...selectors.keys()].map((id) => [id, { ingress: new Map(), egress: new Map() }] as const),
  );
  const skipped: FlowLeftOut[] = [];
  for (const flow of flows) {
    const { source, destination, protocol, port } = flow;
    const skip = (reason: string) =>
      skipped.push({ source, destination, protocol, ...(port === undefined ? {} : { port }), reason });
    const sides = [
      { direction: 'egress' as const, self: source, other: destination },
      { direction: 'ingress' as const, self: destination, other: source },
    ].filter((side) => rules.has(side.self.id));
    if (sides.length === 0) continue;
    if (flow.dropped >= flow.flows) {
      skip('every flow of the pair was dropped: the network did not let it through');
      continue;
    }
    if (!flowProtocol(flow)) {
      skip(`NetworkPolicy rules name TCP, UDP and SCTP ports, not ${protocol}`);
      continue;
    }
    for (const { direction, self, other } of sides) {
      const peer = peerOf(other, namespace, compiled, workloads);
      if (typeof peer === 'string') {
        skip(peer);
        continue;
      }
      const byPeer = rules.get(self.id)?.[direction] as Map<string, { peer: Peer; ports: PortEntry[] }>;
      const key = JSON.stringify(peer);
      const entry = byPeer.get(key) ?? { peer, ports: [] };
      entry.ports.push({ protocol, ...(port === undefined ? {} : { port }) });
      byPeer.set(key, entry);
    }
  }
  const policies = [...selectors].map(([id, labels]) => {
    const { ingress, egress } = rules.get(id) as { ingress: Map<string, never>; egress: Map<string, never> };
    return {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: policyName(id), namespace },
      spec: {
        podSelector: { matchLabels: labels },
        policyTypes: ['Ingress', 'Egress'],
        ingress: rulesOf(ingress, 'from'),
        egress: rulesOf(egress, 'to'),
      },
    } as KubeObject;
  });
  return { namespace, policies, skipped, unselectable };
}
