import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { type ChartColor, type ChartLine, seriesColors } from '../../ui/chart-colors.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { Loaded } from '../../ui/states.tsx';
import { TimeSeriesChart } from '../../ui/TimeSeriesChart.tsx';
import { StoreUnavailable } from '../metrics/StoreUnavailable.tsx';
import { windowSeconds } from '../metrics/windows.ts';
import type { CostTrend as Trend } from './types.ts';

const total = (points: Trend['series'][number]['points']) => points.reduce((sum, [, v]) => sum + (v ?? 0), 0);

/** The namespaces with the largest cost over the window, one line each: as many as there are colours. */
export function trendLines(trend: Trend): ChartLine[] {
  return [...trend.series]
    .sort((a, b) => total(b.points) - total(a.points))
    .slice(0, seriesColors.length)
    .map((s, i) => ({
      key: s.namespace,
      label: s.namespace,
      points: s.points.map(([t, v]) => [t ?? 0, v ?? null] as const),
      color: seriesColors[i] as ChartColor,
      area: trend.series.length === 1,
    }));
}

/** The hourly allocation cost (CPU and memory) per namespace over the window, or one namespace's. */
export function CostTrend({ window, namespace }: { window: string; namespace?: string }) {
  const query = useQuery({
    queryKey: ['cost', 'trend', window, namespace],
    queryFn: ({ signal }) => get('/api/cost/trend', { query: { window, namespace }, signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <Loaded query={query} what="the cost trend">
      {(trend) => {
        if (!trend.available) return <StoreUnavailable answer={trend} needs="cost" />;
        const lines = trendLines(trend);
        const now = Math.floor(Date.now() / 1000);
        return (
          <div className="flex flex-col gap-2">
            <TimeSeriesChart
              label={namespace ? `Hourly cost of ${namespace}` : 'Hourly cost per namespace'}
              unit="USD/h"
              lines={lines}
              stepSeconds={trend.stepSeconds}
              from={now - windowSeconds(trend.window)}
              to={now}
            />
            <p className={`text-xs ${mutedLook}`}>
              CPU and memory allocation; storage is not in the trend.
              {trend.series.length > lines.length &&
                ` The ${lines.length} most expensive of ${trend.series.length} namespaces.`}
            </p>
          </div>
        );
      }}
    </Loaded>
  );
}
