import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDuration, parseDuration } from '../durations.ts';
import { parseSize } from '../sizes.ts';

/** A bad flag, variable or config-file value; the message names it. The CLIs exit 2 on it. */
export class UsageError extends Error {}

export type OptionType =
  | 'string'
  | 'boolean'
  | 'port'
  | 'url'
  | 'path'
  | 'integer'
  | 'duration'
  | 'size'
  | 'enum';

export interface OptionSpec<Config> {
  flag: string;
  key: keyof Config & string;
  /** The config-file field, when it differs from `key` (e.g. `timelineRetention` in hours form). */
  fileKey?: string;
  env: string;
  type: OptionType;
  /** Bounds of an integer option, or of a duration (milliseconds) or size (bytes) option. */
  range?: [number, number];
  /** An empty value is a setting of its own (e.g. an empty claim name turns a feature off). */
  emptyAllowed?: boolean;
  /** Allowed values of an enum option. */
  values?: readonly string[];
  placeholder?: string;
  /** What the option does; `--help` adds its default (see `defaultText`), so the help never states one itself. */
  help: string;
  /**
   * What an unset option means when the defaults hold no value for it (e.g. `the current context`); an option
   * with a value in the defaults shows that value instead.
   */
  defaultText?: string;
  /** A credential: its value never shows in what the process reports about itself (e.g. /debug/pprof/cmdline). */
  secret?: boolean;
  /**
   * What a text value must look like beyond its type (a list of NAME=URL, an address): throws with a message
   * naming `source`, the flag, variable or config-file field the value came from.
   */
  check?: (value: string, source: string) => void;
}

/** Runs the option's own check; whatever it throws is a UsageError (the CLIs exit 2 on it, without a trace). */
function checked(spec: OptionSpec<unknown>, text: string, source: string): void {
  try {
    spec.check?.(text, source);
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

function convert(
  spec: OptionSpec<unknown>,
  raw: string | boolean,
  source: string,
): string | number | boolean {
  if (spec.type === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', ''].includes(raw.toLowerCase())) return false;
    throw new UsageError(`${source}: "${raw}" is not a boolean (true or false)`);
  }
  const text = String(raw);
  if (text === '') {
    if (spec.emptyAllowed) return text;
    throw new UsageError(`${source} needs a value`);
  }
  switch (spec.type) {
    case 'port': {
      const port = Number(text);
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new UsageError(`${source}: "${text}" is not a port number (1-65535)`);
      return port;
    }
    case 'url':
      if (!/^https?:\/\/[^\s]+$/.test(text))
        throw new UsageError(`${source}: "${text}" is not an http(s) URL`);
      return text;
    case 'path':
      return resolve(text);
    case 'string':
      checked(spec, text, source);
      return text;
    case 'integer': {
      const [min, max] = spec.range ?? [0, Number.MAX_SAFE_INTEGER];
      const value = Number(text);
      if (!Number.isInteger(value) || value < min || value > max)
        throw new UsageError(`${source}: "${text}" is not a whole number from ${min} to ${max}`);
      return value;
    }
    case 'enum':
      if (!spec.values?.includes(text))
        throw new UsageError(`${source}: "${text}" is not one of ${spec.values?.join(', ')}`);
      return text;
    case 'duration':
    case 'size': {
      let value: number;
      try {
        value = spec.type === 'duration' ? parseDuration(text, source) : parseSize(text, source);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const [min, max] = spec.range ?? [0, Number.MAX_SAFE_INTEGER];
      if (value < min || value > max) {
        const shown = spec.type === 'duration' ? [formatDuration(min), formatDuration(max)] : [min, max];
        throw new UsageError(`${source}: "${text}" is outside ${shown[0]} to ${shown[1]}`);
      }
      return value;
    }
    default:
      return text;
  }
}

export interface ParsedOptions<Config> {
  help: boolean;
  /** Values given as flags or environment variables (they override the config file). */
  overrides: Partial<Config>;
}

/**
 * Parses flags strictly (an unknown flag or a bad value is a UsageError naming it) and reads each option's
 * environment variable; flags win over variables.
 */
export function parseOptions<Config>(
  specs: readonly OptionSpec<Config>[],
  argv: string[],
  env: NodeJS.ProcessEnv,
): ParsedOptions<Config> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          specs.map((o) => [o.flag, { type: o.type === 'boolean' ? 'boolean' : 'string' }]),
        ),
      },
    });
  } catch (error) {
    throw new UsageError(
      (error as Error).message.replace(/\. To specify.*$/s, '').replace(/^Unknown option/, 'unknown flag'),
    );
  }
  const overrides: Partial<Config> = {};
  for (const spec of specs) {
    const fromEnv = env[spec.env];
    if (fromEnv !== undefined)
      Object.assign(overrides, { [spec.key]: convert(spec as OptionSpec<unknown>, fromEnv, spec.env) });
    const fromFlag = parsed.values[spec.flag];
    if (fromFlag !== undefined)
      Object.assign(overrides, {
        [spec.key]: convert(spec as OptionSpec<unknown>, fromFlag as string | boolean, `--${spec.flag}`),
      });
  }
  return { help: Boolean(parsed.values.help), overrides };
}

/**
 * flags > environment > config file > defaults. Config-file strings and numbers go through the same
 * conversions and checks as flags (durations, sizes, paths, ranges); booleans are typed already.
 */
export function resolveOptions<Config>(
  specs: readonly OptionSpec<Config>[],
  overrides: Partial<Config>,
  file: Record<string, unknown>,
  defaults: Partial<Config>,
  fileName: string,
): Config {
  const fromFile: Partial<Config> = {};
  for (const spec of specs) {
    const fileKey = spec.fileKey ?? spec.key;
    const value = file[fileKey];
    if (value === undefined) continue;
    // Numbers go through the same checks as text (a port's range; a bare number is no duration: `3600` is refused).
    const converted =
      typeof value === 'string' || typeof value === 'number'
        ? convert(spec as OptionSpec<unknown>, String(value), `${fileName} ${fileKey}`)
        : value;
    Object.assign(fromFile, { [spec.key]: converted });
  }
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return { ...defaults, ...defined(fromFile), ...defined(overrides) } as Config;
}
