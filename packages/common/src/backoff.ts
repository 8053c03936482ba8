/** The first retry waits about this long; each next one twice as long. */
export const minBackoffMs = 1_000;
/** No retry waits longer than this. */
export const maxBackoffMs = 30_000;

/**
 * The one retry schedule of Binnacle (the API server connection, each informer, the agent's tunnel): about
 * 1 s, 2 s, 4 s … capped at 30 s, each ±20 % so that many clients never retry in lockstep.
 */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(maxBackoffMs, minBackoffMs * 2 ** Math.min(attempt, 30));
  return Math.min(maxBackoffMs, Math.max(minBackoffMs, Math.round(base * (0.8 + 0.4 * random()))));
}
