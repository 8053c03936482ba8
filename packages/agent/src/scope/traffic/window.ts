import { parseDuration } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';

/** The window of observed traffic a caller may ask about: the traffic routes' and the policy impact's. */
export const trafficWindow = { defaultMs: 5 * 60_000, minMs: 10_000, maxMs: 3_600_000 };

/** The window of `since` (`5m`) in milliseconds, bounded; a value out of bounds is a 400 naming it. */
export function trafficWindowOf(since: string | undefined): number {
  if (since === undefined) return trafficWindow.defaultMs;
  const ms = parseDuration(since, 'since');
  if (ms < trafficWindow.minMs || ms > trafficWindow.maxMs)
    throw badRequest(`since must be between 10s and 1h, not ${since}`);
  return ms;
}
