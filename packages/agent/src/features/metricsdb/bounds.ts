import { DurationError, parseDuration, parseStep, parseUnixTimeOrDuration } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';

/** Points one range query may return per series: Prometheus refuses more than 11 000 itself. */
export const maxPointsPerSeries = 11_000;
/** The longest window the resource, namespace and cluster routes chart. */
export const maxChartRangeMs = 336 * 3_600_000;

/** Chart windows and their steps, about 40–170 points each (the anchor product's table). */
const presets: [rangeMs: number, stepMs: number][] = [
  [10 * 60_000, 15_000],
  [30 * 60_000, 30_000],
  [3_600_000, 60_000],
  [3 * 3_600_000, 120_000],
  [6 * 3_600_000, 300_000],
  [12 * 3_600_000, 600_000],
  [24 * 3_600_000, 900_000],
  [48 * 3_600_000, 1_800_000],
  [168 * 3_600_000, 3_600_000],
  [maxChartRangeMs, 7_200_000],
];

/** A parser of ours whose refusal (`DurationError`, naming the setting) is a 400. */
const refusing =
  <A extends unknown[]>(parse: (...args: A) => number) =>
  (...args: A): number => {
    try {
      return parse(...args);
    } catch (error) {
      if (error instanceof DurationError) throw badRequest(error.message);
      throw error;
    }
  };

const duration = refusing(parseDuration);
/** A step in seconds (as Prometheus takes it) or in hours form. */
const step = refusing(parseStep);
/** A time as the Prometheus API takes it (Unix seconds) or as Binnacle writes them (RFC 3339, or `90m` back). */
export const parseQueryTime = refusing(parseUnixTimeOrDuration);

/** The window a chart route covers and its step: `range` (hours form, default 1h), ending now. */
export function chartWindow(range: string | undefined, now: number) {
  const rangeMs = duration(range ?? '1h', 'range');
  if (rangeMs < 60_000 || rangeMs > maxChartRangeMs)
    throw badRequest(`range: "${range}" is outside 1m to 336h`);
  const stepMs = (presets.find(([upTo]) => rangeMs <= upTo) ?? presets.at(-1) ?? [0, 60_000])[1];
  return { range: range ?? '1h', startMs: now - rangeMs, endMs: now, stepMs };
}

export interface RangeParams {
  start?: string;
  end?: string;
  step?: string;
}

/**
 * A pass-through range: start before end, and no more than `maxPointsPerSeries` points per series — a larger
 * answer is refused naming the step that would fit, never cut short.
 */
export function queryRange(params: RangeParams, now: number) {
  if (!params.start) throw badRequest('start: a range query needs start (and end, step)');
  const startMs = parseQueryTime(params.start, 'start', now);
  const endMs = params.end ? parseQueryTime(params.end, 'end', now) : now;
  if (endMs < startMs) throw badRequest('end: must not be before start');
  const stepMs = params.step ? step(params.step, 'step') : chartWindow('1h', 0).stepMs;
  const points = Math.floor((endMs - startMs) / stepMs) + 1;
  if (points > maxPointsPerSeries) {
    const fits = Math.ceil((endMs - startMs) / (maxPointsPerSeries - 1) / 1000);
    throw badRequest(
      `step: ${points} points per series exceed the limit of ${maxPointsPerSeries}; use a step of at least ${fits}s or a shorter range`,
    );
  }
  return { startMs, endMs, stepMs };
}

/** A per-request time-out, never above the configured one (`--metricsdb-timeout`). */
export function queryTimeout(value: string | undefined, capMs: number): number {
  if (value === undefined) return capMs;
  const ms = duration(value, 'timeout');
  if (ms < 1) throw badRequest(`timeout: "${value}" must be above zero`);
  return Math.min(ms, capMs);
}
