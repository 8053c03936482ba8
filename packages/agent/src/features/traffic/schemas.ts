import { Type } from 'typebox';
import { sourceNames } from './detect.ts';
import { verdicts } from './model.ts';

const Recommendation = Type.Object({
  name: Type.Enum([...sourceNames]),
  reason: Type.String(),
  installCommand: Type.String(),
  docsUrl: Type.String(),
});

export const SourcesAnswer = Type.Object({
  sources: Type.Array(
    Type.Object({
      name: Type.Enum([...sourceNames]),
      status: Type.Enum(['available', 'not_found', 'needs_metrics_store']),
      native: Type.Boolean(),
      message: Type.String(),
      found: Type.Optional(Type.String()),
    }),
  ),
  active: Type.Union([Type.Enum([...sourceNames]), Type.Null()]),
  preferred: Type.Union([Type.Enum([...sourceNames]), Type.Null()]),
  cni: Type.Optional(Type.String()),
  recommendation: Type.Optional(Recommendation),
});

export const SourceChoice = Type.Object({
  preferred: Type.Union([Type.Enum([...sourceNames]), Type.Null()]),
  active: Type.Union([Type.Enum([...sourceNames]), Type.Null()]),
});

const Endpoint = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  name: Type.String(),
  namespace: Type.Optional(Type.String()),
  ip: Type.Optional(Type.String()),
});

export const FlowPair = Type.Object(
  {
    id: Type.String(),
    source: Endpoint,
    destination: Endpoint,
    ports: Type.Array(
      Type.Object({
        protocol: Type.String(),
        port: Type.Optional(Type.Integer()),
        flows: Type.Integer(),
        dropped: Type.Optional(
          Type.Integer({ description: 'of them, dropped or in error (Hubble; absent for metrics sources)' }),
        ),
      }),
    ),
    flows: Type.Integer(),
    connections: Type.Integer(),
    requests: Type.Integer(),
    errors: Type.Integer(),
    requestRate: Type.Number({ description: 'requests per second over the window' }),
    errorRate: Type.Number({ description: '5xx responses / requests, 0 to 1' }),
    bytes: Type.Optional(
      Type.Integer({ description: 'absent for sources that do not count bytes (Hubble)' }),
    ),
    verdicts: Type.Record(Type.String(), Type.Integer(), {
      description: `flows per verdict: ${verdicts.join(', ')}`,
    }),
    httpStatus: Type.Record(Type.String(), Type.Integer()),
    avgLatencyMs: Type.Optional(Type.Number()),
    lastSeen: Type.String(),
  },
  { $id: 'TrafficFlowPair' },
);

export const Absence = Type.Object({
  available: Type.Literal(false),
  reason: Type.String(),
  recommendation: Type.Optional(Recommendation),
});

export const FlowsAnswer = Type.Union([
  Absence,
  Type.Object({
    available: Type.Literal(true),
    source: Type.Enum([...sourceNames]),
    windowMs: Type.Integer(),
    from: Type.String(),
    to: Type.String(),
    pairs: Type.Array(Type.Ref('TrafficFlowPair')),
    truncated: Type.Boolean(),
  }),
]);

/**
 * What the flow stream sends: a `snapshot` of the window's pairs, then `delta`s; `unavailable` while no source
 * gives flows, `error` when the source broke after a snapshot (it is retried, the next snapshot follows).
 */
export const flowStreamEvents = {
  snapshot: Type.Object({
    available: Type.Literal(true),
    source: Type.Enum([...sourceNames]),
    windowMs: Type.Integer(),
    pairs: Type.Array(Type.Ref('TrafficFlowPair')),
  }),
  delta: Type.Object({
    changed: Type.Array(Type.Ref('TrafficFlowPair'), { description: 'pairs new or whose numbers changed' }),
    removed: Type.Array(Type.String(), { description: 'ids of pairs that left the window' }),
  }),
  unavailable: Absence,
  error: Absence,
};

const Via = Type.Enum(['flag', 'request', 'dns', 'port-forward']);
export const ConnectionAnswer = Type.Object({
  source: Type.Literal('hubble'),
  status: Type.Enum(['connected', 'disconnected', 'error']),
  available: Type.Boolean(),
  address: Type.Optional(Type.String()),
  via: Type.Optional(Via),
  version: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  tried: Type.Array(Type.Object({ address: Type.String(), via: Via, error: Type.Optional(Type.String()) })),
  checkedAt: Type.Optional(Type.String()),
});
