import { parseDuration } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';

/** The window of observed traffic a caller may ask about: the traffic routes' and the policy impact's. */
export const trafficWindow = { defaultMs: 5 * 60_000, minMs: 10_000, maxMs: 3_600_000 };

/**
 * The windows a caller may name, exactly: 10 to 3600 seconds, 1 to 60 minutes, or 1h. A document stating the
 * bounds lets a request it allows never be refused as malformed (the fuzz check `valid_input_taken`).
 */
export const trafficWindowPattern =
  '^(([1-9][0-9]|[1-9][0-9]{2}|[12][0-9]{3}|3[0-5][0-9]{2}|3600)s|([1-9]|[1-5][0-9]|60)m|1h)$';

/** The window of `since` (`5m`) in milliseconds, bounded; a value out of bounds is a 400 naming it. */
export function trafficWindowOf(since: string | undefined): number {
  if (since === undefined) return trafficWindow.defaultMs;
  const ms = parseDuration(since, 'since');
  if (ms < trafficWindow.minMs || ms > trafficWindow.maxMs)
    throw badRequest(`since must be between 10s and 1h, not ${since}`);
  return ms;
}
