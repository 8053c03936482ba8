import { formatDefault, helpDefault, type OptionSpec } from '@binnacle/common/server';

/** Splits a Markdown table row on its unescaped pipes; `\|` inside a cell is a literal pipe. */
function cells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

const plain = (cell: string) => cell.replaceAll('`', '');

/**
 * The rows of the first table after `heading`, by flag name (`--port N` → `port`); a row without a flag (`—`), by
 * its variable (`BINNACLE_SECRET_KEY`).
 */
function flagRows(markdown: string, heading: string): Map<string, string[]> {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" heading`);
  const first = lines.findIndex((line, index) => index > start && line.startsWith('|'));
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const row = cells(line).map(plain);
    const [flag = '', env = ''] = row;
    rows.set(flag === '—' ? env : (flag.replace(/^--/, '').split(' ')[0] ?? ''), row);
  }
  return rows;
}

/** A setting that no flag gives (a secret): only its variable, and perhaps the config file. */
export interface EnvOnlySetting {
  env: string;
  /** Its config-file key; none when only the variable gives it. */
  fileKey?: string;
}

/**
 * Where a documented flag table (flag and placeholder | variable | config-file key | default | meaning) disagrees
 * with the option specs and the defaults the command runs with; empty when they agree. A default the defaults hold
 * must be written as `--help` shows it (a note may follow in parentheses); a prose default must start with the
 * spec's own words; an option with neither is `—`. `fileKeys`: the keys the config file accepts. `envOnly`: the
 * settings documented in rows of their own with `—` for a flag.
 */
export function flagTableDisagreements<Config>(
  markdown: string,
  heading: string,
  specs: readonly OptionSpec<Config>[],
  defaults: Partial<Config>,
  fileKeys: ReadonlySet<string>,
  envOnly: readonly EnvOnlySetting[] = [],
): string[] {
  const rows = flagRows(markdown, heading);
  const found: string[] = [];
  const take = (name: string) => {
    const row = rows.get(name);
    rows.delete(name);
    if (!row) found.push(`${name}: no row`);
    return row;
  };
  const expect = (name: string, what: string, documented: string | undefined, actual: string) => {
    if (documented !== actual) found.push(`${name}: ${what} "${documented}", the code "${actual}"`);
  };
  for (const spec of specs) {
    const name = `--${spec.flag}`;
    const row = take(name.slice(2));
    if (!row) continue;
    const [flag, env, fileKey, fallback = ''] = row;
    expect(name, 'flag', flag, `${name}${spec.placeholder ? ` ${spec.placeholder}` : ''}`);
    expect(name, 'variable', env, spec.env);
    const key = spec.fileKey ?? spec.key;
    expect(name, 'config-file key', fileKey, fileKeys.has(key) ? key : '—');
    const wanted = formatDefault(spec, defaults) ?? '—';
    if (fallback !== wanted && !fallback.startsWith(`${wanted} (`))
      found.push(`${name}: default "${fallback}", the code "${wanted}"`);
  }
  for (const setting of envOnly) {
    const row = take(setting.env);
    if (row) expect(setting.env, 'config-file key', row[2], setting.fileKey ?? '—');
  }
  for (const name of rows.keys()) found.push(`${name}: documented but no such setting`);
  return found;
}

/**
 * Where `--help` could state another default than the command runs with: a spec's own help text naming a default,
 * a `defaultText` that a value in the defaults hides, or a flag's line in `help` without the default
 * `helpDefault` gives. Empty when they agree.
 */
export function helpDisagreements<Config>(
  help: string,
  specs: readonly OptionSpec<Config>[],
  defaults: Partial<Config>,
): string[] {
  const lines = help.split('\n');
  const found: string[] = [];
  for (const spec of specs) {
    const name = `--${spec.flag}`;
    if (/default/i.test(spec.help)) found.push(`${name}: its help text names a default of its own`);
    const value = defaults[spec.key];
    if (spec.defaultText !== undefined && value !== undefined && value !== '')
      found.push(`${name}: defaultText "${spec.defaultText}" is hidden by the default ${String(value)}`);
    const line = lines.find((text) => text.startsWith(`  ${name} `) || text === `  ${name}`);
    const shown = helpDefault(spec, defaults);
    if (line === undefined) found.push(`${name}: not in --help`);
    else if (shown !== undefined && !line.endsWith(`(default ${shown})`))
      found.push(`${name}: --help says "${line.trim()}", the code's default is "${shown}"`);
    else if (shown === undefined && line.includes('(default '))
      found.push(`${name}: --help states a default, the code has none`);
  }
  return found;
}
