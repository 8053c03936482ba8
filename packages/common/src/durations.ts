/**
 * Durations are written in hours form — `168h`, `20m`, `90s`, `1h30m`, `250ms` — never in days, so `7d`
 * is rejected with a message that names the setting. Times are RFC 3339. The patterns below are the parsers' own
 * and are also what the OpenAPI document declares, so a client can check a value before sending it.
 */
const unitMs = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
const number = '(\\d+(?:\\.\\d+)?)';
// The lookahead refuses the empty string, where every part is optional.
const duration = `(?=\\d)(?:${number}h)?(?:${number}m)?(?:${number}s)?(?:(\\d+)ms)?`;
/** Days the calendar has: 31 or 30 by month, February 28, and its 29th in leap years (by 4, centuries by 400). */
const leapYear = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const date = `(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))|${leapYear}-02-29)`;
const time = `${date}[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)`;

/** A duration in hours form, as a JSON Schema pattern. */
export const durationPattern = `^${duration}$`;
/** An RFC 3339 date-time with a zone (`2026-11-20T10:00:00Z`, `2026-11-20T11:00:00.5+01:00`). */
export const rfc3339Pattern = `^${time}$`;
/** A point in time as an RFC 3339 time or as a duration back from now (`since=90m`). */
export const timeOrDurationPattern = `^(?:${time}|${duration})$`;
/** Seconds as the Prometheus API writes steps and Unix times (`60`, `1700000000.5`). */
const seconds = '\\d+(?:\\.\\d+)?';
/** A step of a range query: seconds (as Prometheus takes it) or a duration (`30s`, `5m`). */
export const stepPattern = `^(?:${seconds}|${duration})$`;
/** A point in time for a metrics query: Unix seconds, an RFC 3339 time or a duration back from now. */
export const unixTimeOrDurationPattern = `^(?:${seconds}|${time}|${duration})$`;

const durationRegex = new RegExp(durationPattern);
const timeRegex = new RegExp(rfc3339Pattern);

/** A duration or a time that does not parse; the message names the setting. */
export class DurationError extends Error {}

/** Parses a duration to milliseconds; `setting` names the flag or field in the error. */
export function parseDuration(value: string, setting: string): number {
  const match = durationRegex.exec(value);
  if (!match) {
    const hint = /^\d+(\.\d+)?d$/.test(value)
      ? ` (days are not accepted: write ${Number.parseFloat(value) * 24}h)`
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

/** Parses an RFC 3339 time to epoch milliseconds; a day the month does not have (`02-31`) is refused too. */
export function parseTime(value: string, setting: string): number {
  const at = timeRegex.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new DurationError(`${setting}: "${value}" is not an RFC 3339 time like 2026-11-20T10:00:00Z`);
  }
  return at;
}

/** Parses an RFC 3339 time, or a duration counted back from `now`, to epoch milliseconds. */
export function parseTimeOrDuration(value: string, setting: string, now: number): number {
  if (/^\d{4}-/.test(value)) return parseTime(value, setting);
  try {
    return now - parseDuration(value, setting);
  } catch (error) {
    throw new DurationError(`${(error as Error).message}, or an RFC 3339 time`);
  }
}

const secondsRegex = new RegExp(`^${seconds}$`);

/** A step in seconds or a duration, to milliseconds (above zero). */
export function parseStep(value: string, setting: string): number {
  let ms: number;
  if (secondsRegex.test(value)) ms = Math.round(Number(value) * 1000);
  else {
    try {
      ms = parseDuration(value, setting);
    } catch (error) {
      throw new DurationError(`${(error as Error).message}, or seconds`);
    }
  }
  if (ms < 1) throw new DurationError(`${setting}: "${value}" must be above zero`);
  return ms;
}

/** Unix seconds, an RFC 3339 time or a duration counted back from `now`, to epoch milliseconds. */
export function parseUnixTimeOrDuration(value: string, setting: string, now: number): number {
  if (secondsRegex.test(value)) return Math.round(Number(value) * 1000);
  try {
    return parseTimeOrDuration(value, setting, now);
  } catch (error) {
    throw new DurationError(`${(error as Error).message}, or Unix seconds`);
  }
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
