/** How urgent a certificate is: by the days its leaf has left, or `invalid` when it cannot be judged or used. */
export type Severity = 'ok' | 'warning' | 'critical' | 'expired' | 'invalid';

/** A certificate with this many days left or fewer is a warning. */
export const warningDays = 30;
/** A certificate with this many days left or fewer is critical. */
export const criticalDays = 7;

const dayMs = 86_400_000;

/** Whole days from `now` to `notAfter`, rounded down: negative once `notAfter` is past. */
export const daysLeft = (notAfter: number, now: number) => Math.floor((notAfter - now) / dayMs);

/** The severity of a certificate with `days` left (from {@link daysLeft}). */
export function severityOf(days: number): Severity {
  if (days < 0) return 'expired';
  if (days <= criticalDays) return 'critical';
  if (days <= warningDays) return 'warning';
  return 'ok';
}

/** Most urgent first: what is broken now, then what breaks soon. */
export const severityRank: Record<Severity, number> = {
  expired: 0,
  invalid: 1,
  critical: 2,
  warning: 3,
  ok: 4,
};

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
