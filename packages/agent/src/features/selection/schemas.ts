import { Type } from 'typebox';

/** The most YAML one request carries; parsing bounds it further (ADR 0046), as apply does. */
export const maxYamlChars = 1_000_000;

export const relations = [
  'service',
  'disruption-budget',
  'policy-target',
  'policy-ingress-peer',
  'policy-egress-peer',
  'workload',
  'autoscaler',
] as const;

const PodSample = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  pods: Type.Array(Type.Object({ namespace: Type.String(), name: Type.String() }), {
    description: 'the first 20 by name',
  }),
});

export const SelectionImpactRequest = Type.Object(
  {
    yaml: Type.String({
      minLength: 1,
      maxLength: maxYamlChars,
      description: 'one object in YAML or JSON, as it would be applied',
    }),
    namespace: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 63,
        pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
        description: 'for a namespaced object that names none (default "default")',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SelectionImpactAnswer = Type.Object({
  object: Type.Object({
    kind: Type.String(),
    group: Type.String(),
    namespace: Type.Optional(Type.String()),
    name: Type.String(),
  }),
  dryRun: Type.Union([
    Type.Object({ accepted: Type.Literal(true), action: Type.Enum(['created', 'configured', 'unchanged']) }),
    Type.Object({
      accepted: Type.Literal(false),
      error: Type.String({ description: 'why the API server refuses the edit as invalid' }),
    }),
  ]),
  relabelled: PodSample,
  changes: Type.Array(
    Type.Object({
      kind: Type.String(),
      group: Type.String(),
      namespace: Type.String(),
      name: Type.String(),
      relation: Type.Enum([...relations], {
        description:
          "how it selects pods: a Service's endpoints, a PDB's pods, a NetworkPolicy's own pods or its ingress/egress peers, a workload's selector, an HPA's target's pods",
      }),
      before: Type.Integer({ minimum: 0 }),
      after: Type.Integer({ minimum: 0 }),
      gained: PodSample,
      lost: PodSample,
    }),
  ),
  mismatch: Type.Optional(
    Type.String({ description: "a workload whose selector misses its own template's labels" }),
  ),
  loading: Type.Optional(
    Type.Array(Type.String(), { description: 'kinds still loading into the cache, left out of the answer' }),
  ),
});
