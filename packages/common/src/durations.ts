/**
 * Durations are written in hours form — `168h`, `20m`, `90s`, `1h30m`, `250ms` — never in days, so `7d`
 * is rejected with a message that names the setting.
 */
const unitMs = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
const pattern = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/;

export class DurationError extends Error {}

/** Parses a duration to milliseconds; `setting` names the flag or field in the error. */
export function parseDuration(value: string, setting: string): number {
  const text = value.trim();
  const match = pattern.exec(text);
  if (!text || !match || match.slice(1).every((part) => part === undefined)) {
    const hint = /^\d+(\.\d+)?d$/.test(text)
      ? ` (days are not accepted: write ${Number.parseFloat(text) * 24}h)`
      : '';
    throw new DurationError(`${setting}: "${value}" is not a duration like 168h, 20m, 90s or 1h30m${hint}`);
  }
  const [, h, m, s, ms] = match;
  const total =
    Number(h ?? 0) * unitMs.h +
    Number(m ?? 0) * unitMs.m +
    Number(s ?? 0) * unitMs.s +
    Number(ms ?? 0) * unitMs.ms;
  return Math.round(total);
}

/** Formats milliseconds in the same form (`1h30m`, `45s`, `0s`). */
export function formatDuration(ms: number): string {
  if (ms <= 0) return '0s';
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [unit, size] of Object.entries(unitMs)) {
    const count = Math.floor(rest / size);
    if (count > 0) {
      parts.push(`${count}${unit}`);
      rest -= count * size;
    }
  }
  return parts.join('');
}
