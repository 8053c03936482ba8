/**
 * A CronJob's schedule in words, as the CronJob controller reads it (the standard five fields, the `@hourly`…
 * `@yearly` descriptors and `@every <duration>`; month and weekday names; `?` as `*`). Undefined for anything
 * else: the page then shows the expression alone rather than words that might be wrong.
 */

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const descriptors: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface Field {
  min: number;
  max: number;
  /** What one step over `*` counts: "every 3 months". */
  unit: string;
  /** Names accepted for values (JAN, MON…), lower-cased, indexed from `min`. */
  names?: string[];
  /** How one value reads. */
  word: (value: number) => string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const [minuteField, hourField, dayField, monthField, weekdayField] = [
  { min: 0, max: 59, unit: 'minute', word: String },
  { min: 0, max: 23, unit: 'hour', word: (h: number) => `${pad(h)}:00` },
  { min: 1, max: 31, unit: 'day', word: String },
  {
    min: 1,
    max: 12,
    unit: 'month',
    names: monthNames.map((m) => m.slice(0, 3).toLowerCase()),
    word: (m: number) => monthNames[m - 1] ?? '',
  },
  // 7 is Sunday too.
  {
    min: 0,
    max: 7,
    unit: 'weekday',
    names: dayNames.map((d) => d.slice(0, 3).toLowerCase()),
    word: (d: number) => dayNames[d % 7] ?? '',
  },
] as Field[] as [Field, Field, Field, Field, Field];

/** One comma-separated part of a field: a single value, a range, or a step over a range or `*`. */
type Part = { from: number; to: number; step: number; star: boolean };

function value(text: string, field: Field): number | undefined {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + field.min;
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= field.min && n <= field.max ? n : undefined;
}

function parseField(text: string, field: Field): Part[] | undefined {
  const parts: Part[] = [];
  for (const piece of text.split(',')) {
    const [range = '', stepText] = piece.split('/');
    if (stepText !== undefined && !/^\d{1,2}$/.test(stepText)) return undefined;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return undefined;
    if (range === '*' || range === '?') {
      parts.push({ from: field.min, to: field.max, step, star: true });
      continue;
    }
    const [fromText = '', toText] = range.split('-');
    const from = value(fromText, field);
    const to = toText === undefined ? (stepText === undefined ? from : field.max) : value(toText, field);
    if (from === undefined || to === undefined || to < from) return undefined;
    parts.push({ from, to, step, star: false });
  }
  return parts;
}

const list = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** A field's values in words: "Monday to Friday", "1 and 15", "every 3 months". */
function phrase(parts: Part[], field: Field): string {
  return list(
    parts.map(({ from, to, step, star }) => {
      if (step > 1)
        return star
          ? `every ${step} ${field.unit}s`
          : `every ${step} ${field.unit}s from ${field.word(from)} to ${field.word(to)}`;
      return from === to ? field.word(from) : `${field.word(from)} to ${field.word(to)}`;
    }),
  );
}

const every = (parts: Part[]) => parts.length === 1 && parts[0]?.star === true && parts[0].step === 1;
const single = (parts: Part[]) =>
  parts.length === 1 && parts[0]?.from === parts[0]?.to ? parts[0]?.from : undefined;
const starStep = (parts: Part[]) => (parts.length === 1 && parts[0]?.star ? parts[0].step : undefined);

function minuteWords(minutes: Part[]): string {
  const minute = single(minutes);
  if (minute === 0) return 'on the hour';
  if (minute !== undefined) return `at minute ${minute}`;
  if (every(minutes)) return 'every minute';
  const step = starStep(minutes);
  return step ? `every ${step} minutes` : `at minutes ${phrase(minutes, minuteField)}`;
}

function timeWords(minutes: Part[], hours: Part[]): string {
  const minute = single(minutes);
  const hourStep = starStep(hours);
  if (every(hours))
    return minute === undefined ? minuteWords(minutes) : `every hour, ${minuteWords(minutes)}`;
  if (hourStep) return `every ${hourStep} hours, ${minuteWords(minutes)}`;
  if (minute !== undefined && hours.every((p) => p.step === 1)) {
    // "at 09:30 and 18:30", "every hour from 09:00 to 17:00"
    const at = (h: number) => `${pad(h)}:${pad(minute)}`;
    return list(
      hours.map((p, i) =>
        p.from === p.to
          ? `${i === 0 ? 'at ' : ''}${at(p.from)}`
          : `every hour from ${at(p.from)} to ${at(p.to)}`,
      ),
    );
  }
  return `${minuteWords(minutes)} during hours ${phrase(hours, hourField)}`;
}

function dayWords(days: Part[], weekdays: Part[]): string | undefined {
  const onDays = every(days)
    ? undefined
    : `on day${single(days) === undefined ? 's' : ''} ${phrase(days, dayField)} of the month`;
  const onWeekdays = every(weekdays) ? undefined : `on ${phrase(weekdays, weekdayField)}`;
  // Both restricted: the controller runs on either (as cron always has).
  if (onDays && onWeekdays) return `${onDays} or ${onWeekdays}`;
  return onDays ?? onWeekdays;
}

const durationUnits: Record<string, string> = { h: 'hour', m: 'minute', s: 'second' };

/** `@every 1h30m` → "every 1 hour 30 minutes". */
function everyWords(duration: string): string | undefined {
  const pieces = [...duration.matchAll(/(\d+)([hms])/g)];
  if (pieces.length === 0 || pieces.map((p) => p[0]).join('') !== duration) return undefined;
  return `every ${pieces.map(([, n, unit]) => `${n} ${durationUnits[unit as string]}${n === '1' ? '' : 's'}`).join(' ')}`;
}

export function cronWords(schedule: string): string | undefined {
  const trimmed = schedule.trim().replace(/\s+/g, ' ');
  const sentence = trimmed.startsWith('@every ')
    ? everyWords(trimmed.slice('@every '.length))
    : fieldWords(descriptors[trimmed.toLowerCase()] ?? trimmed);
  return sentence && sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function fieldWords(expression: string): string | undefined {
  const texts = expression.split(' ');
  const fields = [minuteField, hourField, dayField, monthField, weekdayField];
  if (texts.length !== fields.length) return undefined;
  const parsed = texts.map((text, i) => parseField(text, fields[i] as Field));
  if (parsed.some((p) => p === undefined)) return undefined;
  const [minutes, hours, days, months, weekdays] = parsed as [Part[], Part[], Part[], Part[], Part[]];
  const time = timeWords(minutes, hours);
  // A time of day with no day named runs every day; "every 5 minutes" needs no "every day".
  const atTime = single(minutes) !== undefined && single(hours) !== undefined;
  const day = dayWords(days, weekdays) ?? (atTime ? 'every day' : undefined);
  const month = every(months)
    ? undefined
    : starStep(months)
      ? phrase(months, monthField)
      : `in ${phrase(months, monthField)}`;
  return [time, day, month].filter(Boolean).join(' ');
}
