import type { KubeObject } from '@binnacle/common';
import {
  type CompiledPolicy,
  type CompiledRule,
  type CompiledSnapshot,
  compileSnapshot,
  type Endpoint,
  selectingPolicies,
} from './compile.ts';
import {
  bothDirections,
  type Direction,
  firstPeer,
  openEndToEnd,
  type Parties,
  pairVerdict,
} from './direction.ts';
import {
  endpointsOf,
  type FlowEnd,
  type FlowLeftOut,
  flowProtocol,
  type ObservedFlow,
  type WorkloadPods,
} from './flows.ts';
import { type ClusterSnapshot, type PairVerdict, protocols } from './model.ts';
import { allPorts, portRange } from './ports.ts';

/** A proposed change of policies: new or edited ones (an edit replaces the policy of that name), deleted ones. */
export interface PolicyChange {
  apply: readonly KubeObject[];
  /** `namespace/name` of each policy deleted. */
  remove: readonly string[];
}

/** The rule that decides a flow after the change: a policy's rule letting it through, or a policy isolating it. */
export interface DecidingRule {
  /** `namespace/name`. */
  policy: string;
  direction: Direction;
  /** The index in the policy's ingress or egress list; absent when the policy denies by isolating the pod. */
  ruleIndex?: number;
}

export type FlowState = 'allowed' | 'denied' | 'partly';

export interface FlowImpact extends ObservedFlow {
  before: FlowState;
  after: FlowState;
  decidedBy: DecidingRule[];
  /** The evaluator's sentence on the direction that decides. */
  reason: string;
}

export interface FlowsImpact {
  /** The observed flows judged (a workload pair, protocol and port each). */
  judged: number;
  unchanged: number;
  newlyDenied: FlowImpact[];
  newlyAllowed: FlowImpact[];
  unjudged: FlowLeftOut[];
}

const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** The snapshot's policies after the change: deleted and replaced ones out, the proposed ones in. */
export function changedSnapshot(snapshot: ClusterSnapshot, change: PolicyChange): ClusterSnapshot {
  const gone = new Set([...change.remove, ...change.apply.map(keyOf)]);
  return {
    ...snapshot,
    policies: [...snapshot.policies.filter((p) => !gone.has(keyOf(p))), ...change.apply],
  };
}

/** An endpoint numbered once for the whole impact, so that per-endpoint answers are kept in arrays. */
interface Party {
  endpoint: Endpoint;
  index: number;
}

type Outcome = ReturnType<typeof bothDirections>;

/**
 * Judges one compiled set of policies for many flows, remembering which policies select each endpoint and which
 * peer of a rule matches it, as the matrix does, and both directions' outcome per pair of endpoints: endpoints
 * recur across flows, and the ports a pair's directions open do not depend on the port asked.
 */
class Judge {
  readonly #compiled: CompiledSnapshot;
  readonly #parties: number;
  readonly #selected = { ingress: [] as CompiledPolicy[][], egress: [] as CompiledPolicy[][] };
  readonly #peers = new Map<CompiledRule, Int32Array>();
  readonly #outcomes = new Map<number, Outcome>();

  constructor(compiled: CompiledSnapshot, parties: number) {
    this.#compiled = compiled;
    this.#parties = parties;
  }

  #selecting(party: Party, direction: Direction): CompiledPolicy[] {
    const cache = this.#selected[direction];
    let policies = cache[party.index];
    if (!policies) {
      policies = selectingPolicies(this.#compiled, party.endpoint, direction);
      cache[party.index] = policies;
    }
    return policies;
  }

  #peer(rule: CompiledRule, party: Party): number {
    let row = this.#peers.get(rule);
    if (!row) {
      row = new Int32Array(this.#parties).fill(unknownPeer);
      this.#peers.set(rule, row);
    }
    if (row[party.index] === unknownPeer) row[party.index] = firstPeer(rule, party.endpoint);
    return row[party.index] as number;
  }

  outcome(source: Party, destination: Party, parties: Parties): Outcome {
    const key =
      (source.index * this.#parties + destination.index) * protocols.length +
      protocols.indexOf(parties.protocol);
    let both = this.#outcomes.get(key);
    if (!both) {
      const policies = {
        egress: this.#selecting(source, 'egress'),
        ingress: this.#selecting(destination, 'ingress'),
      };
      const ends = { source, destination };
      both = bothDirections(parties, policies, (rule, peer) => this.#peer(rule, ends[peer]));
      this.#outcomes.set(key, both);
    }
    return both;
  }
}

const unknownPeer = -2;

const asked = (parties: Parties) => (parties.port === undefined ? allPorts : portRange(parties.port));
const isOpen = (outcome: Outcome, parties: Parties) =>
  openEndToEnd(outcome.egress, outcome.ingress, asked(parties)).length > 0;

/** The rules that decide a verdict: those letting it through, or the policies isolating the direction that denies. */
function decidingRules(verdict: PairVerdict): { decidedBy: DecidingRule[]; reason: string } {
  const directions = (['egress', 'ingress'] as const).map((direction) => ({
    direction,
    ...verdict[direction],
  }));
  if (verdict.allowed) {
    const isolated = directions.filter((d) => d.isolated);
    return {
      decidedBy: isolated.flatMap((d) =>
        d.decidedBy.map((ref) => ({ policy: ref.policy, direction: d.direction, ruleIndex: ref.ruleIndex })),
      ),
      reason: (isolated.at(-1) ?? directions[1])?.reason ?? '',
    };
  }
  const denying = directions.filter((d) => !d.allowed);
  return {
    decidedBy: denying.flatMap((d) => d.policies.map((policy) => ({ policy, direction: d.direction }))),
    reason: denying.map((d) => d.reason).join('; '),
  };
}

/** Rules named once each, in the order found. */
const uniqueRules = (rules: DecidingRule[]) => [
  ...new Map(rules.map((r) => [`${r.policy}|${r.direction}|${r.ruleIndex ?? ''}`, r])).values(),
];

const stateOf = (allowed: number, total: number): FlowState =>
  allowed === total ? 'allowed' : allowed === 0 ? 'denied' : 'partly';

/**
 * Whether a changed policy can alter a verdict between two ends: it must select the source for egress or the
 * destination for ingress. Worked out once per endpoint and direction.
 */
function touchedBy(changed: readonly CompiledPolicy[]) {
  const memo = { ingress: [] as boolean[], egress: [] as boolean[] };
  const selected = ({ endpoint: e, index }: Party, direction: Direction) => {
    let found = memo[direction][index];
    if (found === undefined) {
      found =
        e.namespace !== undefined &&
        changed.some((p) => p[direction] !== undefined && p.namespace === e.namespace && p.selects(e.labels));
      memo[direction][index] = found;
    }
    return found;
  };
  return (sources: Party[], destinations: Party[]) =>
    sources.some((e) => selected(e, 'egress')) || destinations.some((e) => selected(e, 'ingress'));
}

/** A flow's two ends and protocol as the evaluator takes them, or why it cannot be judged. */
function judgeable(flow: ObservedFlow, sources: Party[] | string, destinations: Party[] | string) {
  if (typeof sources === 'string') return sources;
  if (typeof destinations === 'string') return destinations;
  const protocol = flowProtocol(flow);
  if (!protocol) return `NetworkPolicy rules name TCP, UDP and SCTP ports, not ${flow.protocol}`;
  if ([...sources, ...destinations].every((e) => e.endpoint.namespace === undefined))
    return 'both ends are outside the cluster: no NetworkPolicy applies';
  return { sources, destinations, protocol };
}

/**
 * Which observed flows a change of policies newly denies or newly allows (docs/adr/0122-…): each flow is judged
 * before and after, on one pod of every shape of its two workloads; a flow whose pods no changed policy selects
 * keeps its verdict and is not judged twice. Malformed proposed policies are a 400 naming the field.
 */
export function flowsImpact(
  snapshot: ClusterSnapshot,
  change: PolicyChange,
  flows: readonly ObservedFlow[],
  workloads: WorkloadPods,
): FlowsImpact {
  const before = compileSnapshot(snapshot);
  const proposed = compileSnapshot({ ...snapshot, policies: [...change.apply] }).policies;
  const gone = new Set([...change.remove, ...proposed.map((p) => p.key)]);
  const after: CompiledSnapshot = {
    ...before,
    policies: [...before.policies.filter((p) => !gone.has(p.key)), ...proposed],
  };
  const changed = [...before.policies.filter((p) => gone.has(p.key)), ...proposed];
  const ends = new Map<string, Party[] | string>();
  let count = 0;
  for (const flow of flows)
    for (const end of [flow.source, flow.destination])
      if (!ends.has(end.id)) {
        const found = endpointsOf(end, before, workloads);
        ends.set(
          end.id,
          typeof found === 'string' ? found : found.map((endpoint) => ({ endpoint, index: count++ })),
        );
      }
  const endpoints = (end: FlowEnd) => ends.get(end.id) as Party[] | string;
  const judges = { before: new Judge(before, count), after: new Judge(after, count) };
  const touched = touchedBy(changed);
  const answer: FlowsImpact = { judged: 0, unchanged: 0, newlyDenied: [], newlyAllowed: [], unjudged: [] };
  for (const flow of flows) {
    const { source, destination, protocol, port } = flow;
    const parts = judgeable(flow, endpoints(source), endpoints(destination));
    if (typeof parts === 'string') {
      answer.unjudged.push({
        source,
        destination,
        protocol,
        ...(port === undefined ? {} : { port }),
        reason: parts,
      });
      continue;
    }
    const { sources, destinations, protocol: protocolJudged } = parts;
    answer.judged += 1;
    if (!touched(sources, destinations)) {
      answer.unchanged += 1;
      continue;
    }
    const verdicts = sources.flatMap((s) =>
      destinations.map((d) => {
        const parties: Parties = {
          source: s.endpoint,
          destination: d.endpoint,
          protocol: protocolJudged,
          port,
        };
        const [was, will] = [judges.before.outcome(s, d, parties), judges.after.outcome(s, d, parties)];
        return { parties, after: will, before: isOpen(was, parties), allowed: isOpen(will, parties) };
      }),
    );
    const lost = verdicts.filter((v) => v.before && !v.allowed);
    const gained = verdicts.filter((v) => !v.before && v.allowed);
    if (lost.length === 0 && gained.length === 0) {
      answer.unchanged += 1;
      continue;
    }
    const states = {
      before: stateOf(verdicts.filter((v) => v.before).length, verdicts.length),
      after: stateOf(verdicts.filter((v) => v.allowed).length, verdicts.length),
    };
    const impact = (flipped: typeof verdicts): FlowImpact => {
      const decided = flipped.map((v) =>
        decidingRules(pairVerdict(v.after.egress, v.after.ingress, asked(v.parties), v.parties)),
      );
      return {
        source,
        destination,
        protocol,
        ...(port === undefined ? {} : { port }),
        flows: flow.flows,
        dropped: flow.dropped,
        ...states,
        decidedBy: uniqueRules(decided.flatMap((d) => d.decidedBy)),
        reason: decided[0]?.reason ?? '',
      };
    };
    if (lost.length > 0) answer.newlyDenied.push(impact(lost));
    if (gained.length > 0) answer.newlyAllowed.push(impact(gained));
  }
  return answer;
}
