import { Type } from 'typebox';

/** The graph `GET /api/topology` answers and the change stream's `topology` events carry. */
export const Topology = Type.Object({
  nodes: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      group: Type.Optional(
        Type.String({
          description:
            "the kind's API group when the id names the kind `kind.group` (an ecosystem kind, whose name may collide); the object's page is /resources/<Kind.group>/…",
        }),
      ),
      namespace: Type.Optional(Type.String()),
      name: Type.String(),
      status: Type.Enum(['healthy', 'degraded', 'unhealthy', 'unknown']),
      data: Type.Object(
        {
          audit: Type.Optional(
            Type.Object(
              { warning: Type.Integer(), danger: Type.Integer() },
              { description: "the audit's findings on the object (on the namespace, collapsed)" },
            ),
          ),
          problems: Type.Optional(
            Type.Array(Type.String(), {
              description:
                'what the object names that does not exist or may not be used (a backend Service, an issuer, a scale target)',
            }),
          ),
          missing: Type.Optional(
            Type.Boolean({ description: 'a placeholder for an object others name that does not exist' }),
          ),
          policyResults: Type.Optional(
            Type.Object(
              { pass: Type.Integer(), fail: Type.Integer(), warn: Type.Integer(), error: Type.Integer() },
              { description: "policy reports' results naming the object, by outcome (Kyverno)" },
            ),
          ),
          certificate: Type.Optional(
            Type.Object(
              {
                secret: Type.String(),
                severity: Type.Enum(['ok', 'warning', 'critical', 'expired', 'invalid']),
                daysLeft: Type.Union([Type.Integer(), Type.Null()]),
                notAfter: Type.Union([Type.String(), Type.Null()]),
              },
              { description: 'the most urgent certificate the object serves' },
            ),
          ),
        },
        { additionalProperties: true },
      ),
    }),
  ),
  edges: Type.Array(
    Type.Object({
      id: Type.String(),
      source: Type.String(),
      target: Type.String(),
      type: Type.Enum(['manages', 'exposes', 'routes-to', 'configures', 'uses', 'protects', 'traffic']),
      skipIfKindVisible: Type.Optional(Type.String()),
      data: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
  ),
  warnings: Type.Array(Type.String()),
  collapsedToNamespaces: Type.Optional(
    Type.Boolean({ description: 'the cluster is too big to draw whole: one Namespace node per namespace' }),
  ),
  estimatedNodes: Type.Optional(Type.Integer()),
  levelOfDetail: Type.Optional(
    Type.Enum(['pod-groups', 'kinds', 'namespaces'], {
      description:
        "the whole cluster is too big to draw object by object: each owner's pods one PodGroup, else one KindGroup per namespace and kind, else one Namespace node per namespace",
    }),
  ),
  leftOutKinds: Type.Optional(
    Type.Array(Type.String(), {
      description: 'kinds a reduced graph leaves out; a namespace filter shows them',
    }),
  ),
});
