import { kubectlDuration } from '@binnacle/common/tables';

/** Moments and durations in the words the pages use. */

/** Seconds as kubectl prints an age (`45s`, `5m30s`, `3h`, `5d`): the pages and the tables read alike. */
export const age = (seconds: number): string => kubectlDuration(Math.max(0, seconds) * 1000);

/** `3m ago` from an RFC 3339 time, `—` without one. */
export function ago(iso: string | undefined, now = Date.now()): string {
  const at = Date.parse(iso ?? '');
  return Number.isNaN(at) ? '—' : `${age((now - at) / 1000)} ago`;
}
