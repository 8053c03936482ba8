import { Type } from 'typebox';

/** One side of a comparison in a query: `<namespace>/<name>`, `_/<name>` for a cluster-scoped object. */
export const ComparedObjectParam = Type.String({
  minLength: 3,
  maxLength: 317,
  pattern: '^(_|[a-z0-9]([-a-z0-9]*[a-z0-9])?)/[^/\\s]+$',
  description: '`<namespace>/<name>`; `_/<name>` for a cluster-scoped object',
});

const Side = Type.Object({
  cluster: Type.Optional(
    Type.Object({ id: Type.String(), name: Type.String() }, { description: 'through the hub: where it is' }),
  ),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  resourceVersion: Type.Optional(Type.String()),
  at: Type.Optional(Type.String({ format: 'date-time', description: 'the moment it was read as of' })),
});

const FoldReason = Type.Union([Type.Literal('status'), Type.Literal('defaulted'), Type.Literal('server')], {
  description:
    'why it is folded: `status` (observed state), `server` (generated for each object: uid, resourceVersion, hashes, allocated IPs), `defaulted` (one side holds the API server default, the other lacks the field)',
});

/** What comparing two objects answers, on the agent and through the hub (docs/compare.md). */
export const ComparisonAnswer = Type.Object({
  kind: Type.String(),
  apiVersion: Type.String({ description: "the left object's" }),
  left: Side,
  right: Side,
  identical: Type.Boolean({ description: 'no difference at all, folded ones included' }),
  differences: Type.Array(
    Type.Object({
      path: Type.String({ description: 'list elements by their key: `containers[name=app].image`' }),
      left: Type.Optional(Type.Unknown({ description: 'absent: the field is not set on that side' })),
      right: Type.Optional(Type.Unknown()),
      folded: Type.Optional(FoldReason),
    }),
    {
      description:
        'metadata first, then spec and the rest, status last; Secret values never, only their size',
    },
  ),
  counts: Type.Object({
    shown: Type.Integer(),
    status: Type.Integer(),
    defaulted: Type.Integer(),
    server: Type.Integer(),
  }),
  equal: Type.Integer({ description: 'fields with the same value on both sides' }),
});
