import { Type } from 'typebox';

const Protocol = Type.Union([Type.Literal('TCP'), Type.Literal('UDP'), Type.Literal('SCTP')]);

const RuleRef = Type.Object({
  policy: Type.String({ description: 'namespace/name of the NetworkPolicy' }),
  ruleIndex: Type.Integer(),
  peerIndex: Type.Optional(Type.Integer()),
  portIndex: Type.Optional(Type.Integer()),
});

const DirectionVerdict = Type.Object({
  isolated: Type.Boolean({ description: 'some policy selects the pod for this direction' }),
  allowed: Type.Boolean(),
  policies: Type.Array(Type.String(), { description: 'every policy selecting the pod for this direction' }),
  decidedBy: Type.Array(RuleRef, { description: 'the rules that let it through; empty when denied' }),
  reason: Type.String(),
  ports: Type.String({ description: '`all`, `none` or ranges like `80, 8000-8080`' }),
});

const pairVerdict = {
  allowed: Type.Boolean(),
  egress: DirectionVerdict,
  ingress: DirectionVerdict,
  ports: Type.String({ description: 'the ports open end to end, of those asked about' }),
};

const ConnectionResult = Type.Object({
  ...pairVerdict,
  perPod: Type.Optional(
    Type.Array(
      Type.Object({
        ...pairVerdict,
        pod: Type.Object({ namespace: Type.String(), name: Type.String() }),
        targetPort: Type.Optional(Type.Integer()),
      }),
      { description: 'a Service destination: the verdict on each pod behind it' },
    ),
  ),
  sourceParts: Type.Optional(
    Type.Array(Type.Object({ addresses: Type.String(), allowed: Type.Boolean() }), {
      description: 'a source block of addresses, cut where the policies’ ipBlocks begin and end',
    }),
  ),
});

const ReachabilityMatrix = Type.Object({
  pods: Type.Array(Type.String(), { description: 'namespace/name, the order of rows and columns' }),
  port: Type.Union([Type.Integer(), Type.Literal('any')]),
  protocol: Protocol,
  cells: Type.Array(
    Type.Array(
      Type.Object({
        allowed: Type.Boolean(),
        egress: Type.Boolean(),
        ingress: Type.Boolean(),
        policies: Type.Array(Type.String()),
      }),
    ),
    { description: 'cells[source][destination]' },
  ),
});

/** One connection's verdict, or with `matrix=` a namespace's reachability matrix. */
export const Evaluation = Type.Union([ConnectionResult, ReachabilityMatrix]);
export { Protocol };

const FlowEnd = Type.Object({
  id: Type.String({
    description:
      '`deployment/<ns>/<name>`, `service/<ns>/<name>`, `external/<ip or name>`, `node/<name>`, `hidden`',
  }),
  kind: Type.String(),
  name: Type.String(),
  namespace: Type.Optional(Type.String()),
  ip: Type.Optional(Type.String()),
});

const flowKey = {
  source: FlowEnd,
  destination: FlowEnd,
  protocol: Type.String(),
  port: Type.Optional(
    Type.Integer({ description: 'absent: the source gave no port; any port of the protocol is judged' }),
  ),
};

const FlowState = Type.Enum(['allowed', 'denied', 'partly'], {
  description: 'partly: some of the workloads’ pods (by their labels) are allowed, others not',
});

const FlowImpact = Type.Object({
  ...flowKey,
  flows: Type.Integer({ description: 'flows observed on this pair and port in the window' }),
  dropped: Type.Integer({ description: 'of the pair’s flows, those the network already dropped' }),
  before: FlowState,
  after: FlowState,
  decidedBy: Type.Array(
    Type.Object({
      policy: Type.String({ description: 'namespace/name' }),
      direction: Type.Enum(['ingress', 'egress']),
      ruleIndex: Type.Optional(
        Type.Integer({
          description:
            'the rule letting it through; absent: the policy isolates the pod and no rule allows it',
        }),
      ),
    }),
  ),
  reason: Type.String(),
});

const TrafficWindow = Type.Union([
  Type.Object({
    available: Type.Literal(true),
    source: Type.String(),
    from: Type.String(),
    to: Type.String(),
    truncated: Type.Boolean({
      description: 'more pairs than the traffic view keeps: the busiest were judged',
    }),
  }),
  Type.Object({ available: Type.Literal(false), reason: Type.String() }),
]);

export const ImpactAnswer = Type.Object({
  traffic: TrafficWindow,
  judged: Type.Integer({ description: 'observed flows (workload pair, protocol, port) judged' }),
  unchanged: Type.Integer(),
  newlyDenied: Type.Array(FlowImpact),
  newlyAllowed: Type.Array(FlowImpact),
  unjudged: Type.Array(Type.Object({ ...flowKey, reason: Type.String() })),
  matrices: Type.Array(
    Type.Object({
      namespace: Type.String(),
      workloads: Type.Array(Type.String(), { description: 'rows (sources) and columns (destinations)' }),
      cells: Type.Array(Type.Array(Type.Object({ before: Type.Boolean(), after: Type.Boolean() })), {
        description: 'cells[source][destination]: any TCP port open end to end',
      }),
      truncated: Type.Boolean(),
    }),
  ),
});

export const ProposalAnswer = Type.Object({
  namespace: Type.String(),
  traffic: TrafficWindow,
  yaml: Type.String({
    description: 'the policies, documents separated by ---; empty without observed traffic',
  }),
  policies: Type.Array(Type.Object({}, { additionalProperties: true })),
  skipped: Type.Array(Type.Object({ ...flowKey, reason: Type.String() }), {
    description: 'observed flows the proposal does not allow, and why',
  }),
  unselectable: Type.Array(Type.String(), { description: 'workloads whose pods share no stable label' }),
  impact: Type.Optional(ImpactAnswer),
});
