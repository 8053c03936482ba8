import type { Answer } from '../../api/client.ts';
import { type ChartColor, type ChartLine, seriesColors } from '../../ui/chart-colors.ts';

/** A series as the metricsdb chart routes answer it. */
export type ApiSeries = Extract<
  Answer<'/api/metricsdb/resources/{kind}/{name}'>,
  { available: true }
>['series'][number];

type Points = ChartLine['points'];

/** Thresholds the routes send beside usage, and how each is drawn. */
const thresholds: Record<string, { label: string; color: ChartColor }> = {
  requests: { label: 'Requests', color: 'amber' },
  limits: { label: 'Limits', color: 'red' },
  allocatable: { label: 'Allocatable', color: 'indigo' },
  capacity: { label: 'Capacity', color: 'slate' },
};

/** More pods than this and their own lines would be a tangle (and run out of colours): the total alone is drawn. */
export const maxPodLines = seriesColors.length - 1;

const pairs = (points: (number | null)[][]): Points => points.map(([t, v]) => [t ?? 0, v ?? null] as const);

/** The pods' usage added up at each sample time; null where no pod had a number. */
export function sumByTime(series: Points[]): Points {
  const totals = new Map<number, number | null>();
  for (const points of series)
    for (const [t, v] of points) {
      const was = totals.get(t) ?? null;
      totals.set(t, v === null ? was : (was ?? 0) + v);
    }
  return [...totals.entries()].sort(([a], [b]) => a - b);
}

/**
 * The lines of a CPU or memory chart: usage shaded (for several pods their total, each pod's own line beside it
 * while there are few), then requests, limits, allocatable and capacity dashed. The routes sum requests and
 * limits over all the pods, so the total is what compares with them.
 */
export function chartLines(series: ApiSeries[]): ChartLine[] {
  const usage = series.filter((s) => s.name === 'usage');
  const lines: ChartLine[] = [];
  if (usage.length === 1) {
    lines.push({
      key: 'usage',
      label: 'Usage',
      points: pairs(usage[0]?.points ?? []),
      color: 'teal',
      area: true,
    });
  } else if (usage.length > 1) {
    const pods = usage.map((s) => ({ name: s.labels.pod ?? '', points: pairs(s.points) }));
    lines.push({
      key: 'usage',
      label: `Usage, all ${pods.length} pods`,
      points: sumByTime(pods.map((p) => p.points)),
      color: 'teal',
      area: true,
    });
    if (pods.length <= maxPodLines)
      pods
        .sort((a, b) => a.name.localeCompare(b.name))
        .forEach((pod, i) => {
          lines.push({
            key: `pod-${pod.name}`,
            label: pod.name,
            points: pod.points,
            color: seriesColors[i + 1] as ChartColor,
          });
        });
  }
  for (const s of series) {
    const look = thresholds[s.name];
    if (look) lines.push({ key: s.name, ...look, points: pairs(s.points), dashed: true });
  }
  return lines;
}
