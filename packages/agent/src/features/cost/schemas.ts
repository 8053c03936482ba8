import { Duration, Nullable } from '@binnacle/common/server';
import { Type } from 'typebox';
import { NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { Store, Unavailable } from '../../scope/metricsdb/schemas.ts';

const hourly = (description: string) => Type.Number({ description: `${description}, per hour` });

/** The figures every cost row carries: average hourly rates over the window. */
export const figures = {
  hourlyCost: hourly('CPU + memory allocation cost + storage'),
  cpuCost: hourly('allocated cores (max of request and usage) × the node’s vCPU price'),
  memoryCost: hourly('allocated GiB × the node’s GiB price'),
  storageCost: hourly('claimed volumes’ GiB × their price (namespaces and the cluster; 0 for workloads)'),
  cpuUsageCost: hourly('used cores (cAdvisor) × the node’s vCPU price'),
  memoryUsageCost: hourly('working-set GiB (cAdvisor) × the node’s GiB price'),
  efficiency: Nullable(
    Type.Number({ description: 'usage cost ÷ allocation cost in percent; null when nothing was allocated' }),
  ),
};

const common = { currency: Type.String(), window: Type.String() };

/** `available: true` with the store and the fields, or `available: false` with the reason (always 200). */
export const costAnswer = (fields: Parameters<typeof Type.Object>[0]) =>
  Type.Union([
    Type.Object({ available: Type.Literal(true), store: Store, ...common, ...fields }),
    Type.Object({
      ...Unavailable.properties,
      missing: Type.Optional(
        Type.Array(Type.String(), {
          description: 'the series the answer needs that the store does not have',
        }),
      ),
    }),
  ]);

export const WindowQuery = Type.Optional(
  Duration({ description: 'window in hours form, 1h to 720h (default 24h); figures are averages over it' }),
);

export const KindParam = Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z][A-Za-z0-9.]*$' });

export const WorkloadParams = Type.Object({
  kind: KindParam,
  namespace: NamespaceParam,
  name: ObjectNameParam,
});

/** Bounded: each workload is one access review and one branch of every query. */
export const maxApplicationWorkloads = 50;

export const ApplicationBody = Type.Object(
  {
    workloads: Type.Array(
      Type.Object(
        { kind: KindParam, namespace: NamespaceParam, name: ObjectNameParam },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: maxApplicationWorkloads,
      },
    ),
    window: WindowQuery,
  },
  { additionalProperties: false },
);

export const PodCost = Type.Object({ name: Type.String(), node: Type.String(), ...figures });

export const WorkloadCost = Type.Object({
  kind: Type.String(),
  namespace: Type.String(),
  name: Type.String(),
  pods: Type.Array(PodCost),
  ...figures,
});

const Point = Type.Array(Type.Number(), {
  minItems: 2,
  maxItems: 2,
  description: '[Unix seconds, hourly cost]',
});
export const trendFields = { stepSeconds: Type.Number(), points: Type.Array(Point) };
export const namespaceTrendFields = {
  stepSeconds: Type.Number(),
  series: Type.Array(Type.Object({ namespace: Type.String(), points: Type.Array(Point) })),
};

export const NodeCost = Type.Object({
  name: Type.String(),
  instanceType: Type.Optional(Type.String()),
  region: Type.Optional(Type.String()),
  cpuCores: Type.Number(),
  memoryBytes: Type.Number(),
  cpuHourlyCost: Type.Number({ description: 'OpenCost’s price per vCPU-hour' }),
  ramHourlyCostPerGiB: Type.Number({ description: 'OpenCost’s price per GiB-hour' }),
  hourlyCost: hourly('cpuCost + memoryCost'),
  cpuCost: hourly('vCPU price × CPU capacity'),
  memoryCost: hourly('GiB price × memory capacity'),
});
