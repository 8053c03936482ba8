import type { KubeObject } from '@binnacle/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { get } from '../../api/client.ts';
import { ModeSwitch } from '../../ui/ModeSwitch.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { TimeSeriesChart } from '../../ui/TimeSeriesChart.tsx';
import type { Unit } from '../../ui/units.ts';
import { chartLines } from './chart-lines.ts';
import { MetricsServerCard } from './MetricsServerCard.tsx';
import { StoreUnavailable } from './StoreUnavailable.tsx';
import { type ChartRange, chartRanges, windowSeconds } from './windows.ts';

const categories = [
  { id: 'cpu', title: 'CPU', unit: 'cores' },
  { id: 'memory', title: 'Memory (working set)', unit: 'bytes' },
] as const satisfies readonly { id: string; title: string; unit: Unit }[];

function useChart(
  target: { kind: string; namespace?: string; name: string },
  category: string,
  range: ChartRange,
) {
  const { kind, namespace, name } = target;
  return useQuery({
    queryKey: ['metricsdb', 'resource', kind, namespace, name, category, range],
    queryFn: ({ signal }) => {
      const query = { category, range };
      return namespace
        ? get('/api/metricsdb/resources/{kind}/{namespace}/{name}', {
            params: { kind, namespace, name },
            query,
            signal,
          })
        : get('/api/metricsdb/resources/{kind}/{name}', { params: { kind, name }, query, signal });
    },
    refetchInterval: 60_000,
    // A new range keeps the old chart in view until its answer replaces it.
    placeholderData: keepPreviousData,
  });
}

/**
 * CPU and memory of a pod, a workload (its pods rolled up) or a node from the metrics store, against requests and
 * limits (a node: capacity and allocatable), over a range picked above the charts; without a store, what
 * metrics-server and the agent's kept polls of it have.
 */
export function MetricsCard(props: { kind: string; namespace?: string; name: string; resource: KubeObject }) {
  const [range, setRange] = useState<ChartRange>('1h');
  const name = useId();
  const cpu = useChart(props, 'cpu', range);
  const memory = useChart(props, 'memory', range);
  const charts = [
    { ...categories[0], query: cpu },
    { ...categories[1], query: memory },
  ];
  const first = cpu;
  const now = Math.floor(Date.now() / 1000);
  const picker = (
    <ModeSwitch name={name} label="Time range" modes={chartRanges} value={range} onChange={setRange} />
  );
  // No store, or one that does not answer or lacks the series: metrics-server still knows the present.
  if (first.data?.available === false) return <MetricsServerCard {...props} store={first.data} />;
  return (
    <Card title="Metrics" aside={picker}>
      {first.isPending ? (
        <Loading what="the metrics" />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          {charts.map(({ id, title, unit, query }) =>
            query.isError ? (
              <ErrorMessage key={id} error={query.error} what={`the ${title} chart`} />
            ) : query.data?.available ? (
              <section key={id} aria-label={title}>
                <h3 className="mb-2 text-sm font-medium">{title}</h3>
                <TimeSeriesChart
                  label={`${title} of ${props.kind} ${props.name}`}
                  unit={unit}
                  lines={chartLines(query.data.series)}
                  stepSeconds={query.data.stepSeconds}
                  // The answer's own range: while a new one loads, the old chart keeps its window.
                  from={now - windowSeconds(query.data.range)}
                  to={now}
                />
              </section>
            ) : query.data ? (
              <StoreUnavailable key={id} answer={query.data} needs="metrics" />
            ) : (
              <Loading key={id} what={`the ${title} chart`} />
            ),
          )}
        </div>
      )}
    </Card>
  );
}
