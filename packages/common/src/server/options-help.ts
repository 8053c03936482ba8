import { homedir } from 'node:os';
import { formatDuration } from '../durations.ts';
import type { OptionSpec } from './options.ts';

const binaryUnits = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'] as const;

/** Bytes in the largest binary unit that divides them exactly (`512Mi`), as a size flag takes them. */
function formatSize(bytes: number): string {
  for (const [index, unit] of binaryUnits.entries()) {
    const size = 1024 ** (binaryUnits.length - index);
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

/**
 * An option's default as a user would write it (a duration in hours form, a size as a quantity, a path under the
 * home directory with `~`), or what leaving it unset means; undefined when there is nothing to say.
 */
export function formatDefault<Config>(
  spec: OptionSpec<Config>,
  defaults: Partial<Config>,
): string | undefined {
  const value = defaults[spec.key];
  if (value === undefined || value === '') return spec.defaultText;
  if (spec.type === 'duration') return formatDuration(Number(value));
  if (spec.type === 'size') return formatSize(Number(value));
  const text = String(value);
  if (spec.type === 'path' && text.startsWith(`${homedir()}/`)) return `~${text.slice(homedir().length)}`;
  return text;
}

/** The default `--help` shows for an option, or undefined when it shows none. */
export function helpDefault<Config>(spec: OptionSpec<Config>, defaults: Partial<Config>): string | undefined {
  const fallback = formatDefault(spec, defaults);
  // A boolean flag is off unless given: "(default false)" would say nothing.
  return spec.type === 'boolean' && fallback === 'false' ? undefined : fallback;
}

/** The flags part of `--help`, each with its default (from `defaults`, the values the command runs with) and variable. */
export function optionsHelp<Config>(specs: readonly OptionSpec<Config>[], defaults: Partial<Config>): string {
  const rows = specs.map((o) => {
    const left = `  --${o.flag}${o.placeholder ? ` ${o.placeholder}` : ''}`;
    const fallback = helpDefault(o, defaults);
    const shown = fallback === undefined ? '' : ` (default ${fallback})`;
    return `${left.padEnd(30)} ${o.help}${shown}\n${''.padEnd(31)}env ${o.env}`;
  });
  return `${rows.join('\n')}\n  -h, --help                   show this help`;
}
