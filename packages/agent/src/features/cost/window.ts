import { DurationError, parseDuration } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';

const hourMs = 3_600_000;
const minWindowMs = hourMs;
const maxWindowMs = 720 * hourMs;
/** Points a trend series holds at most: enough for a chart, small enough for 30 days of many namespaces. */
export const maxTrendPoints = 121;

/** The window costs are averaged over: hours form, 1h to 720h (30 days), default 24h. */
export function costWindow(value: string | undefined) {
  const text = value ?? '24h';
  let ms: number;
  try {
    ms = parseDuration(text, 'window');
  } catch (error) {
    throw error instanceof DurationError ? badRequest(error.message) : error;
  }
  if (ms < minWindowMs || ms > maxWindowMs) throw badRequest(`window: "${text}" is outside 1h to 720h`);
  return { text, ms, hours: ms / hourMs, promql: `${Math.round(ms / 1000)}s` };
}

/** Whole minutes, at least one, so a trend over the window has no more than `maxTrendPoints` points. */
export function trendStepMs(windowMs: number): number {
  return Math.max(60_000, Math.ceil(windowMs / (maxTrendPoints - 1) / 60_000) * 60_000);
}
