import { gunzipSync } from 'node:zlib';
import { AppError, parseYaml, type YamlLimits, yamlLimits } from '@binnacle/common/server';

/** Helm's own bounds: a packaged chart of at most 20 MiB, no file in it above 5 MiB once unpacked. */
export const maxChartArchiveBytes = 20 << 20;
const maxChartFileBytes = 5 << 20;
const maxUnpackedBytes = 100 << 20;

/** YAML a chart source serves, bounded as ADR 0046 says; what is wrong with it is the source's 502, not the caller's. */
export function sourceYaml(text: string, limits: YamlLimits, name: string): unknown {
  try {
    return parseYaml(text, limits, name);
  } catch (error) {
    if (error instanceof AppError) throw new AppError('chart_source_error', error.message);
    throw error;
  }
}

/** The files of a packaged chart a user reads before installing it. */
export interface ChartFiles {
  metadata: Record<string, unknown>;
  /** values.yaml as written (comments kept). */
  values: string;
  readme?: string;
  /** values.schema.json, parsed. */
  schema?: unknown;
}

const wanted = new Set(['Chart.yaml', 'values.yaml', 'values.schema.json', 'README.md', 'readme.md']);

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/** The PAX `path` record of an extended header, which Go's archive/tar writes for names over 100 bytes. */
function paxPath(data: Buffer): string | undefined {
  for (const line of data.toString('utf8').split('\n')) {
    const record = /^\d+ path=(.*)$/.exec(line);
    if (record) return record[1];
  }
  return undefined;
}

/**
 * The top-level files of a chart from its .tgz (ustar with PAX names, as `helm package` writes it): only the
 * files directly under the chart's directory, so a subchart's values never stand in for the chart's own.
 */
export function readChartArchive(archive: Buffer, source: string): ChartFiles {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: maxUnpackedBytes });
  } catch (error) {
    throw new AppError(
      'chart_source_error',
      `${source} is not a gzip chart archive: ${(error as Error).message}`,
    );
  }
  const files = new Map<string, string>();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const data = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longName = paxPath(data);
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type !== '0' && type !== '\0') continue;
    const parts = name.split('/');
    const file = parts[1];
    if (parts.length !== 2 || !file || !wanted.has(file)) continue;
    if (size > maxChartFileBytes)
      throw new AppError('chart_source_error', `${source}: ${name} is larger than 5 MiB`);
    files.set(file, data.toString('utf8'));
  }
  const chartYaml = files.get('Chart.yaml');
  if (chartYaml === undefined)
    throw new AppError('chart_source_error', `${source} holds no Chart.yaml at its top level`);
  const schema = files.get('values.schema.json');
  return {
    metadata:
      (sourceYaml(chartYaml, yamlLimits.stored, `${source}: Chart.yaml`) as Record<string, unknown> | null) ??
      {},
    values: files.get('values.yaml') ?? '',
    readme: files.get('README.md') ?? files.get('readme.md'),
    schema: schema === undefined ? undefined : parseSchema(schema, source),
  };
}

function parseSchema(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'chart_source_error',
      `${source}: values.schema.json is not JSON: ${(error as Error).message}`,
    );
  }
}
