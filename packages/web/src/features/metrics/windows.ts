/** The windows a resource's charts offer, as the agent takes them (hours form: it has no days). */
export const chartRanges = [
  ['1h', '1h'],
  ['6h', '6h'],
  ['24h', '24h'],
  ['168h', '7d'],
] as const;
export type ChartRange = (typeof chartRanges)[number][0];

/** Cost windows: the chart's, and the 30 days a monthly bill covers. */
export const costWindows = [...chartRanges, ['720h', '30d']] as const;
export type CostWindow = (typeof costWindows)[number][0];

/** How the window switches name a window (`7d` for `168h`); the text itself for one they do not offer. */
export const windowLabel = (text: string) => costWindows.find(([w]) => w === text)?.[1] ?? text;

/** A window in hours form in words: `1h` → `hour`, `6h` → `6 hours`, `168h` → `7 days`. */
export function windowWords(text: string): string {
  const hours = /^(\d+)h$/.exec(text)?.[1];
  if (hours === undefined) return text;
  const n = Number(hours);
  if (n === 1) return 'hour';
  return n % 24 === 0 && n > 24 ? `${n / 24} days` : `${n} hours`;
}

/** A window's length in seconds (hours form). */
export const windowSeconds = (text: string) => Number(/^(\d+)h$/.exec(text)?.[1] ?? 1) * 3600;
