import type { KubeObject } from '@binnacle/common';

/** Our four health words (ADR 0126): `degraded` is on its way (progressing, paused, renewing), not broken. */
export type Health = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';

/**
 * An object's health with why: what decided it (a condition's type, `phase`, `state`, `generation`,
 * `deletion`, a report's `summary`…), and that condition's or field's reason and message. Built-in kinds carry
 * only the word: their pages show the why their own way.
 */
export interface HealthWhy {
  health: Health;
  from?: string;
  reason?: string;
  message?: string;
}

export type Json = Record<string, unknown>;
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

/** A message is cut here: statuses can hold whole error dumps, the why is read in a table cell or a line. */
const maxMessage = 500;

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
export const record = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
export const records = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);
export const count = (value: unknown): number => (typeof value === 'number' ? value : 0);

const asCondition = (entry: Json): Condition | undefined => {
  const type = text(entry.type);
  if (!type) return undefined;
  return {
    type,
    status: text(entry.status) ?? 'Unknown',
    ...(text(entry.reason) ? { reason: text(entry.reason) } : {}),
    ...(text(entry.message) ? { message: text(entry.message) } : {}),
    ...(typeof entry.observedGeneration === 'number' ? { observedGeneration: entry.observedGeneration } : {}),
  };
};

/** The conditions of a `conditions` list (of `status` or of a route's parent, a gateway's listener). */
export const conditionsIn = (list: unknown): Condition[] =>
  records(list).flatMap((entry) => asCondition(entry) ?? []);
export const conditionsOf = (object: KubeObject): Condition[] =>
  conditionsIn(record(object.status).conditions);
export const find = (conditions: readonly Condition[], type: string) =>
  conditions.find((c) => c.type === type);

/** A verdict, its message cut to a readable length. */
export function verdict(health: Health, from?: string, reason?: string, message?: string): HealthWhy {
  const cut = message && message.length > maxMessage ? `${message.slice(0, maxMessage)}…` : message;
  return {
    health,
    ...(from ? { from } : {}),
    ...(reason ? { reason } : {}),
    ...(cut ? { message: cut } : {}),
  };
}

const rank: Record<Health, number> = { healthy: 0, unknown: 1, degraded: 2, unhealthy: 3 };

/** The worst of some verdicts (the first of equals): one failing condition makes the object fail. */
export function worst(verdicts: readonly HealthWhy[]): HealthWhy | undefined {
  let found: HealthWhy | undefined;
  for (const candidate of verdicts)
    if (!found || rank[candidate.health] > rank[found.health]) found = candidate;
  return found;
}

/**
 * A positive condition (Ready, Available, Accepted…) in our words: True healthy, Unknown on its way, False
 * unhealthy unless its reason says the work is still going (`progress`).
 */
export function positive(
  condition: Condition,
  progress: ReadonlySet<string>,
  from = condition.type,
): HealthWhy {
  if (condition.status === 'True') return verdict('healthy', from, condition.reason, condition.message);
  const failed = condition.status === 'False' && !progress.has(condition.reason ?? '');
  return verdict(failed ? 'unhealthy' : 'degraded', from, condition.reason, condition.message);
}

/** What no controller has reported on yet: no status to decide from. */
export const noStatus = (what: string) =>
  verdict('unknown', undefined, 'NoStatus', `no controller has reported ${what} yet`);
