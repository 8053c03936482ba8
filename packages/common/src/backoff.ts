/** A doubling back-off: the first wait is about `firstMs`, each next one twice as long, none longer than `maxMs`. */
export interface BackoffSchedule {
  firstMs: number;
  maxMs: number;
}

/**
 * Retries of work that costs the other side (an informer's LIST, the agent's tunnel): about 1 s, 2 s, 4 s …
 * capped at 30 s.
 */
export const retrySchedule: BackoffSchedule = { firstMs: 1_000, maxMs: 30_000 };

/**
 * Probes of a server that went away, one cheap request each (the agent's `GET /version`): about 0.5 s doubling
 * to 3 s, so a server that answers again is noticed within 3 s however long it was gone (ADR 0050).
 */
export const probeSchedule: BackoffSchedule = { firstMs: 500, maxMs: 3_000 };

/**
 * The one retry function of Binnacle (ADR 0020, 0050): the wait before retry number `attempt` (from 0) on a
 * schedule, each ±20 % so that many clients never retry in lockstep.
 */
export function backoffDelay(attempt: number, random = Math.random, schedule = retrySchedule): number {
  const { firstMs, maxMs } = schedule;
  const base = Math.min(maxMs, firstMs * 2 ** Math.min(attempt, 30));
  return Math.min(maxMs, Math.max(firstMs, Math.round(base * (0.8 + 0.4 * random()))));
}
