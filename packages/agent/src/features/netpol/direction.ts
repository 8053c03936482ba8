import type { CompiledPolicy, CompiledPort, CompiledRule, Endpoint } from './compile.ts';
import type { DirectionVerdict, PairVerdict, Protocol, RuleRef } from './model.ts';
import {
  allPorts,
  formatPorts,
  intersectPorts,
  noPorts,
  overlaps,
  type PortSet,
  portRange,
  unionPorts,
} from './ports.ts';

export type Direction = 'ingress' | 'egress';

/** A rule (peer and port entry) that matched, with the ports it opens. */
interface Contribution {
  ref: RuleRef;
  ports: PortSet;
}

export interface DirectionOutcome {
  isolated: boolean;
  policies: string[];
  contributions: Contribution[];
  /** Every port the direction opens to the peer; all of them when it is not isolated. */
  open: PortSet;
  /** Why nothing polices the direction, when that is more than "no policy selects the pod". */
  unpoliced?: string;
}

/** What a rule's port entry opens on a destination; a named port resolves against the destination pod's ports. */
function portsOf(port: CompiledPort, protocol: Protocol, destination: Endpoint): PortSet {
  if (port.protocol !== protocol) return noPorts;
  if (port.name !== undefined) {
    const named = destination.containerPorts.find((c) => c.name === port.name && c.protocol === protocol);
    return named ? portRange(named.port) : noPorts;
  }
  return port.from === undefined ? allPorts : portRange(port.from, port.to);
}

/** Which of a rule's peers matches the endpoint, -1 when none does. */
export const firstPeer = (rule: CompiledRule, endpoint: Endpoint) =>
  rule.peers?.findIndex((peer) => peer.matches(endpoint)) ?? -1;

const unpoliced = (reason: string): DirectionOutcome => ({
  isolated: false,
  policies: [],
  contributions: [],
  open: allPorts,
  unpoliced: reason,
});

/**
 * What the policies selecting `target` for a direction open to its peer. Policies are additive: the open ports
 * are the union over every rule whose peers match (`peerIndex`, -1 for none) of the ports its entries open.
 * Nothing polices an address outside the cluster, nor (as most plugins do; the spec leaves it open) a
 * host-network pod, whose traffic is its node's.
 */
export function directionOutcome(
  direction: Direction,
  target: Endpoint,
  policies: readonly CompiledPolicy[],
  peerIndex: (rule: CompiledRule) => number,
  ports: (port: CompiledPort) => PortSet,
): DirectionOutcome {
  if (target.namespace === undefined)
    return unpoliced(`${target.text} is outside the cluster: NetworkPolicy does not police its ${direction}`);
  if (target.hostNetwork)
    return unpoliced(`${target.text} uses the host network: NetworkPolicy does not select it`);
  if (policies.length === 0) return { isolated: false, policies: [], contributions: [], open: allPorts };
  const contributions: Contribution[] = [];
  let open = noPorts;
  for (const policy of policies)
    for (const [ruleIndex, rule] of (policy[direction] ?? []).entries()) {
      const peer = rule.peers ? peerIndex(rule) : undefined;
      if (peer === -1) continue;
      const ref = { policy: policy.key, ruleIndex, ...(peer === undefined ? {} : { peerIndex: peer }) };
      const entries = rule.ports
        ? rule.ports.map((port, portIndex) => ({ ref: { ...ref, portIndex }, ports: ports(port) }))
        : [{ ref, ports: allPorts }];
      for (const entry of entries)
        if (entry.ports.length > 0) {
          contributions.push(entry);
          open = unionPorts(open, entry.ports);
        }
    }
  return { isolated: true, policies: policies.map((p) => p.key), contributions, open };
}

export interface Parties {
  source: Endpoint;
  destination: Endpoint;
  protocol: Protocol;
  port?: number;
}

/**
 * Both directions of one connection: egress of the source towards the destination, ingress of the destination
 * from the source, with ports (named ones included) as the destination sees them. `peerIndex` says which of a
 * rule's peers matches the named party, -1 for none.
 */
export function bothDirections(
  parties: Parties,
  policies: { egress: readonly CompiledPolicy[]; ingress: readonly CompiledPolicy[] },
  peerIndex: (rule: CompiledRule, peer: 'source' | 'destination') => number,
): { egress: DirectionOutcome; ingress: DirectionOutcome } {
  const ports = (port: CompiledPort) => portsOf(port, parties.protocol, parties.destination);
  const towards = (peer: 'source' | 'destination') => (rule: CompiledRule) => peerIndex(rule, peer);
  return {
    egress: directionOutcome('egress', parties.source, policies.egress, towards('destination'), ports),
    ingress: directionOutcome('ingress', parties.destination, policies.ingress, towards('source'), ports),
  };
}

/** The ports open end to end among those asked about (`asked`): both directions must open the same port. */
export const openEndToEnd = (egress: DirectionOutcome, ingress: DirectionOutcome, asked: PortSet) =>
  intersectPorts(intersectPorts(egress.open, ingress.open), asked);

const portText = ({ protocol, port }: Parties) =>
  port === undefined ? `any ${protocol} port` : `${protocol} port ${port}`;

function rulesText(refs: RuleRef[]): string {
  const byPolicy = new Map<string, Set<number>>();
  for (const ref of refs)
    byPolicy.set(ref.policy, (byPolicy.get(ref.policy) ?? new Set()).add(ref.ruleIndex));
  const parts = [...byPolicy].map(([policy, rules]) => {
    const indexes = [...rules];
    return `${policy} (rule${indexes.length > 1 ? 's' : ''} ${indexes.join(', ')})`;
  });
  return parts.join(', ');
}

function reasonOf(
  direction: Direction,
  outcome: DirectionOutcome,
  verdict: DirectionVerdict,
  parties: Parties,
) {
  const [target, peer] =
    direction === 'ingress' ? [parties.destination, parties.source] : [parties.source, parties.destination];
  if (outcome.unpoliced) return outcome.unpoliced;
  if (!outcome.isolated)
    return `no NetworkPolicy selects ${target.text} for ${direction}, so its ${direction} is not restricted`;
  const subject = `${direction} ${direction === 'ingress' ? 'to' : 'from'} ${target.text}`;
  const isolatedBy = `${subject} is isolated by ${outcome.policies.join(', ')}`;
  const what = `${portText(parties)} ${direction === 'ingress' ? 'from' : 'to'} ${peer.text}`;
  if (!verdict.allowed) return `${isolatedBy}, and none of their ${direction} rules allows ${what}`;
  const open = parties.port === undefined ? ` (open: ${verdict.ports})` : '';
  return `${isolatedBy}; ${what} is allowed by ${rulesText(verdict.decidedBy)}${open}`;
}

/**
 * A direction's verdict for the ports asked about. Its rules are credited for the ports open end to end when
 * there are any, otherwise for what this direction alone opens.
 */
function directionVerdict(
  direction: Direction,
  outcome: DirectionOutcome,
  asked: PortSet,
  endToEnd: PortSet,
  parties: Parties,
): DirectionVerdict {
  const open = intersectPorts(outcome.open, asked);
  const allowed = open.length > 0;
  const credited = endToEnd.length > 0 ? endToEnd : open;
  const verdict: DirectionVerdict = {
    isolated: outcome.isolated,
    allowed,
    policies: outcome.policies,
    decidedBy: allowed
      ? outcome.contributions.filter((c) => overlaps(c.ports, credited)).map((c) => c.ref)
      : [],
    reason: '',
    ports: formatPorts(open),
  };
  verdict.reason = reasonOf(direction, outcome, verdict, parties);
  return verdict;
}

/** Both directions' verdicts for one source and one destination pod (or address). */
export function pairVerdict(
  egress: DirectionOutcome,
  ingress: DirectionOutcome,
  asked: PortSet,
  parties: Parties,
): PairVerdict {
  const endToEnd = openEndToEnd(egress, ingress, asked);
  return {
    allowed: endToEnd.length > 0,
    egress: directionVerdict('egress', egress, asked, endToEnd, parties),
    ingress: directionVerdict('ingress', ingress, asked, endToEnd, parties),
    ports: formatPorts(endToEnd),
  };
}
