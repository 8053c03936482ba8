import { Type } from 'typebox';

// The answers of ./answers.ts as the API describes them: the store in use, or why none answers.

export const Store = Type.Object({
  kind: Type.Enum(['prometheus', 'victoriametrics']),
  version: Type.String(),
  origin: Type.Enum(['flag', 'connect', 'discovered'], {
    description: '--metricsdb-url, POST /api/metricsdb/connect, or found among Services',
  }),
  via: Type.Enum(['url', 'cluster-dns', 'port-forward']),
  url: Type.Optional(
    Type.String({ description: 'left out for a port-forward (a loopback port of the agent)' }),
  ),
  service: Type.Optional(
    Type.Object({ namespace: Type.String(), name: Type.String(), port: Type.Integer() }),
  ),
});

export const Unavailable = Type.Object({
  available: Type.Literal(false),
  reason: Type.String({ description: 'why no store answers: none configured or found, or what failed' }),
  tried: Type.Optional(Type.Array(Type.String(), { description: 'each address tried and its failure' })),
});
