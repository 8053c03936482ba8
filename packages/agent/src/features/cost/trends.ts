import type { Impersonation } from '../../kube/client.ts';
import { rangeQuery } from '../../scope/metricsdb/client.ts';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import { money } from './math.ts';
import type { CostContext } from './module.ts';
import { overSelectors, type Reader, readPrices } from './reads.ts';
import { aboutApplication, aboutWorkload, namespaceScope, workloadSelectors } from './scope.ts';
import { costAnswer } from './service.ts';
import { costWindow, trendStepMs } from './window.ts';

/**
 * The hourly cost of what the selectors match at each step: allocation times its node's price at that moment
 * (OpenCost's own formula, evaluated by the store at every point), CPU plus memory.
 */
export function trendQuery(selectors: string[], groupBy: string[]): string {
  const labels = groupBy.length > 0 ? `(${groupBy.join(', ')})` : '';
  const matched = (metric: string) => `(${overSelectors(selectors, (s) => `${metric}{${s}}`)})`;
  const price = (metric: string) => `on (node) group_left () avg by (node) (${metric})`;
  const cpu = `sum ${labels ? `by ${labels} ` : ''}(${matched('container_cpu_allocation')} * ${price('node_cpu_hourly_cost')})`;
  const memory = `sum ${labels ? `by ${labels} ` : ''}(${matched('container_memory_allocation_bytes')} / ${2 ** 30} * ${price('node_ram_hourly_cost')})`;
  return `${cpu} + ${labels ? `on ${labels} ` : ''}${memory}`;
}

type Window = ReturnType<typeof costWindow>;

async function trend(reader: Reader, window: Window, selectors: string[], groupBy: string[]) {
  // Missing prices make every point empty; say which series is missing instead.
  await readPrices(reader, window.promql);
  const stepMs = trendStepMs(window.ms);
  const endMs = Math.floor(reader.at / stepMs) * stepMs;
  const data =
    selectors.length === 0
      ? undefined
      : await rangeQuery(
          reader.connection.endpoint,
          trendQuery(selectors, groupBy),
          { startMs: endMs - window.ms, endMs, stepMs },
          reader.timeoutMs,
        );
  const series = data?.resultType === 'matrix' ? data.result : [];
  return {
    currency: 'USD',
    window: window.text,
    stepSeconds: stepMs / 1000,
    series: series.map((s) => ({
      labels: s.metric,
      points: s.values.map(([t, v]) => [t, money(Number(v))] as [number, number]),
    })),
  };
}

/** Per namespace the caller may list pods in (or the one named). */
export async function costTrend(
  ctx: CostContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  query: { window?: string; namespace?: string },
) {
  const window = costWindow(query.window);
  const scope = await namespaceScope(ctx, caller, query.namespace);
  return costAnswer(stores, async (reader) => {
    const answer = await trend(reader, window, scope.selectors, ['namespace']);
    return {
      ...answer,
      series: answer.series.map((s) => ({ namespace: s.labels.namespace ?? '', points: s.points })),
    };
  });
}

/** One series for a workload or for a set of them priced together. */
async function totalTrend(stores: MetricsStores, window: Window, selectors: string[]) {
  return costAnswer(stores, async (reader) => {
    const { series, ...answer } = await trend(reader, window, selectors, []);
    return { ...answer, points: series[0]?.points ?? [] };
  });
}

export const costWorkloadTrend = aboutWorkload(async (stores, workload, window) => {
  const answer = await totalTrend(stores, window, workloadSelectors([workload]));
  return { kind: workload.kind, namespace: workload.namespace, name: workload.name, ...answer };
});

export const costApplicationTrend = aboutApplication((stores, workloads, window) =>
  totalTrend(stores, window, workloadSelectors(workloads)),
);
