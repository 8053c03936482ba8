import { Duration, Nullable } from '@binnacle/common/server';
import { Type } from 'typebox';
import { Store, Unavailable } from '../../scope/metricsdb/schemas.ts';
import { categories } from './queries.ts';

/** `available: true` with the store and the fields, or `available: false` with the reason (always 200). */
export const answer = (fields: Parameters<typeof Type.Object>[0]) =>
  Type.Union([Type.Object({ available: Type.Literal(true), store: Store, ...fields }), Unavailable]);

// An array rather than a tuple: the serializer cannot check a tuple item that may be null.
const Point = Type.Array(Nullable(Type.Number()), {
  minItems: 2,
  maxItems: 2,
  description: '[Unix seconds, value]; the value is null where the store answered NaN or ±Inf',
});

export const chartFields = {
  category: Type.Enum(categories),
  unit: Type.String(),
  range: Type.String(),
  stepSeconds: Type.Number(),
  series: Type.Array(
    Type.Object({
      name: Type.String({ description: 'usage, requests, limits, allocatable or capacity' }),
      labels: Type.Record(Type.String(), Type.String()),
      points: Type.Array(Point),
    }),
  ),
};

export const ChartQuery = {
  category: Type.Optional(Type.Enum(categories, { default: 'cpu' })),
  range: Type.Optional(
    Duration({ description: 'window ending now in hours form, 1m to 336h (default 1h); sets the step' }),
  ),
};

const Amounts = Type.Object({
  cpuRequestCores: Type.Optional(Type.Number()),
  cpuLimitCores: Type.Optional(Type.Number()),
  memoryRequestBytes: Type.Optional(Type.Number()),
  memoryLimitBytes: Type.Optional(Type.Number()),
});
const Verdict = Type.Enum(['over-provisioned', 'under-provisioned', 'right-sized', 'no-request', 'no-data']);

export const WorkloadRecommendation = Type.Object({
  kind: Type.String(),
  namespace: Type.String(),
  name: Type.String(),
  replicas: Type.Integer(),
  containers: Type.Array(
    Type.Object({
      container: Type.String(),
      usage: Type.Object({
        container: Type.String(),
        cpuP95Cores: Type.Optional(Type.Number()),
        cpuMaxCores: Type.Optional(Type.Number()),
        memoryMaxBytes: Type.Optional(Type.Number()),
      }),
      current: Amounts,
      recommended: Amounts,
      cpu: Verdict,
      memory: Verdict,
      saving: Type.Object(
        { cpuCores: Type.Optional(Type.Number()), memoryBytes: Type.Optional(Type.Number()) },
        { description: 'current minus recommended requests, times replicas (negative: more is needed)' },
      ),
    }),
  ),
});

export const Policy = Type.Object({
  cpuPercentile: Type.Number(),
  cpuHeadroom: Type.Number(),
  memoryHeadroom: Type.Number(),
  minCpuCores: Type.Number(),
  minMemoryBytes: Type.Number(),
  tolerance: Type.Number(),
});

export const Window = Type.Optional(
  Duration({ description: 'usage window in hours form, 1h to 720h (default 168h)' }),
);
