import { formatDefault, type OptionSpec } from '@binnacle/common/server';

/** Splits a Markdown table row on its unescaped pipes; `\|` inside a cell is a literal pipe. */
function cells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

const plain = (cell: string) => cell.replaceAll('`', '');

/** The rows of the first table after `heading`, by flag name: `--port N` → `port`. */
function flagRows(markdown: string, heading: string): Map<string, string[]> {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" heading`);
  const first = lines.findIndex((line, index) => index > start && line.startsWith('|'));
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const row = cells(line);
    rows.set(
      plain(row[0] ?? '')
        .replace(/^--/, '')
        .split(' ')[0] ?? '',
      row,
    );
  }
  return rows;
}

/**
 * Where a documented flag table (flag and placeholder | variable | config-file key | default | meaning) disagrees
 * with the option specs and the defaults the command runs with; empty when they agree. A default the defaults hold
 * must be written as `--help` shows it (a note may follow in parentheses); a prose default must start with the
 * spec's own words; an option with neither is `—`. `fileKeys`: the keys the config file accepts.
 */
export function flagTableDisagreements<Config>(
  markdown: string,
  heading: string,
  specs: readonly OptionSpec<Config>[],
  defaults: Partial<Config>,
  fileKeys: ReadonlySet<string>,
): string[] {
  const rows = flagRows(markdown, heading);
  const found: string[] = [];
  for (const spec of specs) {
    const row = rows.get(spec.flag);
    rows.delete(spec.flag);
    if (!row) {
      found.push(`--${spec.flag}: no row`);
      continue;
    }
    const [flag = '', env = '', fileKey = '', fallback = ''] = row.map(plain);
    const expect = (what: string, documented: string, actual: string) => {
      if (documented !== actual) found.push(`--${spec.flag}: ${what} "${documented}", the code "${actual}"`);
    };
    expect('flag', flag, `--${spec.flag}${spec.placeholder ? ` ${spec.placeholder}` : ''}`);
    expect('variable', env, spec.env);
    const key = spec.fileKey ?? spec.key;
    expect('config-file key', fileKey, fileKeys.has(key) ? key : '—');
    const wanted = formatDefault(spec, defaults) ?? '—';
    if (fallback !== wanted && !fallback.startsWith(`${wanted} (`))
      found.push(`--${spec.flag}: default "${fallback}", the code "${wanted}"`);
  }
  for (const flag of rows.keys()) found.push(`--${flag}: documented but no such flag`);
  return found;
}
