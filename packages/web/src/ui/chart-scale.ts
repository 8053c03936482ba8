import { binaryPower, formatBytes, formatCores, type Unit } from './units.ts';

export interface Tick {
  value: number;
  label: string;
}

/** 1, 2, 2.5 or 5 times a power of ten: the step that cuts `span` into at most about `count` parts. */
export function niceStep(span: number, count: number): number {
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * magnitude;
}

/**
 * The value axis from zero to at least `max`: round steps in the unit people read — binary units for bytes (0,
 * 128 MiB, 256 MiB rather than 134 MB), millicores under one core.
 */
export function valueTicks(unit: Unit, max: number, count = 4): Tick[] {
  const top = max > 0 ? max : 1;
  const bytes = unit === 'bytes' || unit === 'bytes/s';
  const scale = bytes ? 1024 ** binaryPower(top) : 1;
  const step = niceStep(top / scale, count) * scale;
  // Money ticks share their decimals ($0.25, $0.50, $0.75), at least cents.
  const cents = Math.max(2, String(Number(step.toPrecision(6))).split('.')[1]?.length ?? 0);
  const label = (value: number) => {
    if (bytes) return `${formatBytes(value, binaryPower(top))}${unit === 'bytes/s' ? '/s' : ''}`;
    if (unit === 'cores') return formatCores(value);
    return `$${value.toFixed(cents)}`;
  };
  const ticks: Tick[] = [];
  // Rounded so that 0.1 + 0.2 stays 0.3 in the labels.
  for (let i = 0; i * step < top + step * 1e-9 || ticks.length < 2; i += 1) {
    const value = Number((i * step).toPrecision(12));
    ticks.push({ value, label: label(value) });
  }
  const last = ticks.at(-1);
  if (last && last.value < top) ticks.push({ value: last.value + step, label: label(last.value + step) });
  return ticks;
}

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const intervals = [
  minute,
  5 * minute,
  10 * minute,
  15 * minute,
  30 * minute,
  hour,
  2 * hour,
  3 * hour,
  6 * hour,
  12 * hour,
  day,
  2 * day,
  7 * day,
];

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const date = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A moment for the hover readout: `Nov 26, 14:05`. */
export const formatMoment = (ms: number) => dateTime.format(ms);

/**
 * Time ticks on the page's clock, at least `minGapPx` apart: whole minutes or hours (`14:00`), and the date
 * (`Nov 26`) at midnight or when the ticks are days apart.
 */
export function timeTicks(fromMs: number, toMs: number, widthPx: number, minGapPx = 90): Tick[] {
  const fit = Math.max(1, Math.floor(widthPx / minGapPx));
  const interval = intervals.find((i) => (toMs - fromMs) / i <= fit) ?? (intervals.at(-1) as number);
  const ticks: Tick[] = [];
  // Aligned on the local clock: a 6-hour step lands on 00:00, 06:00… wherever the browser is.
  const offset = new Date(fromMs).getTimezoneOffset() * minute;
  for (let t = Math.ceil((fromMs - offset) / interval) * interval + offset; t <= toMs; t += interval) {
    const at = new Date(t);
    const midnight = at.getHours() === 0 && at.getMinutes() === 0;
    ticks.push({ value: t, label: interval >= day || midnight ? date.format(at) : clock.format(at) });
  }
  return ticks;
}
