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
