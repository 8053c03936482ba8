import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { AppError, parseYaml, type YamlLimits, yamlLimits } from '@binnacle/common/server';
import { openTar } from '../../oci/open-tar.ts';
import { chartLayerType } from './oci-charts.ts';

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

/**
 * The top-level files of a chart from its .tgz (ustar with PAX names, as `helm package` writes it), read as a
 * stream: only the files directly under the chart's directory, so a subchart's values never stand in for the
 * chart's own.
 */
export async function readChartArchive(archive: Buffer, source: string): Promise<ChartFiles> {
  const files = new Map<string, string>();
  const tar = openTar(Readable.from([archive]), chartLayerType, source, { maxBytes: maxUnpackedBytes });
  try {
    for (let entry = await tar.next(); entry; entry = await tar.next()) {
      const [top, file, ...deeper] = entry.path.split('/');
      if (entry.type !== 'file' || !top || !file || deeper.length || !wanted.has(file)) continue;
      if (entry.size > maxChartFileBytes)
        throw new AppError('chart_source_error', `${source}: ${entry.path} is larger than 5 MiB`);
      files.set(file, await text(tar.content()));
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('chart_source_error', `${source} cannot be read: ${(error as Error).message}`);
  } finally {
    await tar.close();
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
