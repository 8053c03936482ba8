/** Moments and durations in the words the pages use. */

/** Seconds as the largest unit kubectl would show (`45s`, `12m`, `3h`, `5d`). */
export function age(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

/** `3m ago` from an RFC 3339 time, `—` without one. */
export function ago(iso: string | undefined, now = Date.now()): string {
  const at = Date.parse(iso ?? '');
  return Number.isNaN(at) ? '—' : `${age((now - at) / 1000)} ago`;
}
