/**
 * Structured log lines: JSON objects and logfmt pairs read into fields, with the level, message and time picked
 * out under their usual names (docs/adr/0118-structured-logs-and-dock.md). Every step is one pass over a bounded
 * line, with no regular expression, so a hostile log costs no more than a long one.
 */

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** Most severe first: the order the level filter lists them in. */
export const logLevels: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

export interface StructuredLine {
  format: 'json' | 'logfmt';
  /** Every field by its key (nested JSON objects as dotted keys), values as text, in the line's order. */
  fields: Record<string, string>;
  level?: LogLevel;
  message?: string;
  time?: string;
}

/** Longer lines are left as text: a structured logger writes shorter ones (the agent cuts lines at 16 KiB). */
export const maxParsedChars = 16 * 1024;
/** Keys read from one line; the rest are dropped. */
export const maxFields = 64;
/** JSON objects nested deeper than this are kept as one JSON-text value. */
const maxDepth = 3;

export const levelKeys = ['level', 'lvl', 'severity', 'log.level'] as const;
export const messageKeys = ['msg', 'message'] as const;
export const timeKeys = ['time', 'ts', 'timestamp', '@timestamp'] as const;

const levelWords: Record<string, LogLevel> = {
  fatal: 'error',
  panic: 'error',
  critical: 'error',
  crit: 'error',
  alert: 'error',
  emerg: 'error',
  emergency: 'error',
  error: 'error',
  err: 'error',
  eror: 'error',
  e: 'error',
  warning: 'warn',
  warn: 'warn',
  wrn: 'warn',
  w: 'warn',
  notice: 'info',
  info: 'info',
  inf: 'info',
  information: 'info',
  informational: 'info',
  i: 'info',
  debug: 'debug',
  dbg: 'debug',
  d: 'debug',
  trace: 'debug',
  trc: 'debug',
  verbose: 'debug',
};

/**
 * A level's value as one of four: words case-insensitively (`ERROR`, `err`, `Warning`, `fatal`, `trace`), and
 * bunyan's and pino's numbers 10–60 (10 trace and 20 debug → debug, 30 info, 40 warn, 50 error, 60 fatal → error;
 * numbers between round down).
 */
export function normalizeLevel(value: string | undefined): LogLevel | undefined {
  if (value === undefined || value.length > 16) return undefined;
  const word = levelWords[value.trim().toLowerCase()];
  if (word) return word;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 10 || number > 60) return undefined;
  return number >= 50 ? 'error' : number >= 40 ? 'warn' : number >= 30 ? 'info' : 'debug';
}

const first = (fields: Record<string, string>, keys: readonly string[]) => {
  for (const key of keys) if (fields[key] !== undefined) return fields[key];
  return undefined;
};

/** A line as fields, or undefined when it is neither a JSON object nor logfmt (then it is shown as text). */
export function parseStructured(line: string): StructuredLine | undefined {
  if (line.length > maxParsedChars) return undefined;
  const text = line.trim();
  const json = text.startsWith('{') && text.endsWith('}');
  const fields = json ? jsonFields(text) : logfmtFields(text);
  if (!fields) return undefined;
  return {
    format: json ? 'json' : 'logfmt',
    fields,
    level: normalizeLevel(first(fields, levelKeys)),
    message: first(fields, messageKeys),
    time: first(fields, timeKeys),
  };
}

function jsonFields(text: string): Record<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields: Record<string, string> = {};
  let count = 0;
  const add = (prefix: string, object: Record<string, unknown>, depth: number) => {
    for (const [key, inner] of Object.entries(object)) {
      if (count >= maxFields) return;
      const name = prefix + key;
      if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && depth < maxDepth) {
        add(`${name}.`, inner as Record<string, unknown>, depth + 1);
        continue;
      }
      fields[name] = typeof inner === 'string' ? inner : JSON.stringify(inner);
      count += 1;
    }
  };
  add('', value as Record<string, unknown>, 1);
  return fields;
}

const space = (code: number) => code === 32 || code === 9;

/**
 * logfmt (`level=info msg="a b" user=7 ok`): keys up to `=` or a space, values bare up to a space or quoted
 * with `\` escapes. The line counts as logfmt only when every word is a pair (a bare key as in `ok` is allowed
 * after the first pair) and there are two pairs or more, so prose such as `GET /api 200 cache=hit` stays text.
 */
export function logfmtFields(text: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  let pairs = 0;
  let count = 0;
  const read = readLogfmt(text, (key, value) => {
    if (value === undefined && pairs === 0) return false;
    if (value !== undefined) pairs += 1;
    if (count < maxFields) {
      if (fields[key] === undefined) count += 1;
      fields[key] = value ?? '';
    }
    return true;
  });
  return read && pairs >= 2 ? fields : undefined;
}

/**
 * Reads logfmt words in one pass, handing each to `word` (a bare key gets no value); false when the text is not
 * logfmt (a stray or unclosed quote, an empty key) or when `word` refuses one.
 */
export function readLogfmt(text: string, word: (key: string, value: string | undefined) => boolean): boolean {
  let at = 0;
  const end = text.length;
  while (at < end) {
    while (at < end && space(text.charCodeAt(at))) at += 1;
    if (at >= end) break;
    const keyStart = at;
    while (at < end && !space(text.charCodeAt(at)) && text[at] !== '=' && text[at] !== '"') at += 1;
    const key = text.slice(keyStart, at);
    if (key === '' || text[at] === '"') return false;
    let value: string | undefined;
    if (text[at] === '=') {
      at += 1;
      if (text[at] === '"') {
        const read = quoted(text, at + 1);
        if (!read) return false;
        [value, at] = read;
        if (at < end && !space(text.charCodeAt(at))) return false;
      } else {
        const valueStart = at;
        while (at < end && !space(text.charCodeAt(at))) at += 1;
        value = text.slice(valueStart, at);
        if (value.includes('"')) return false;
      }
    }
    if (!word(key, value)) return false;
  }
  return true;
}

/** A quoted value from just after its opening quote: the text and where reading stopped, or undefined if unclosed. */
function quoted(text: string, start: number): [string, number] | undefined {
  let out = '';
  let at = start;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') return [out, at + 1];
    if (char === '\\' && at + 1 < text.length) {
      const next = text[at + 1];
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      at += 2;
      continue;
    }
    out += char;
    at += 1;
  }
  return undefined;
}
