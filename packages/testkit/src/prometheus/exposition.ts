import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { GeneratedMetrics, Series } from './model.ts';

const escapeLabel = (value: string) =>
  value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
const labelText = (labels: Record<string, string>) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',')}}`;

/**
 * The samples as text lines, series by series and each in time order, grouped by metric name (OpenMetrics wants
 * a family's lines together). `unit` picks the timestamp unit: seconds for OpenMetrics, milliseconds for the
 * Prometheus text format VictoriaMetrics imports.
 */
function* lines(metrics: GeneratedMetrics, unit: 's' | 'ms'): Generator<string> {
  const byName = Map.groupBy(metrics.series, (s: Series) => s.name);
  const points = Math.floor((metrics.end - metrics.start) / metrics.stepSeconds) + 1;
  for (const family of [...byName.keys()].sort()) {
    for (const series of byName.get(family) ?? []) {
      const prefix = `${series.name}${labelText(series.labels)} `;
      let chunk = '';
      for (let i = 0; i < points; i += 1) {
        const seconds = metrics.start + i * metrics.stepSeconds;
        chunk += `${prefix}${series.value(i, seconds)} ${unit === 's' ? seconds : seconds * 1000}\n`;
      }
      yield chunk;
    }
  }
}

/** Writes an OpenMetrics file for `promtool tsdb create-blocks-from openmetrics`. */
export async function writeOpenMetrics(metrics: GeneratedMetrics, path: string): Promise<void> {
  const out = createWriteStream(path);
  for (const chunk of lines(metrics, 's')) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end('# EOF\n');
  await once(out, 'finish');
}

/** The samples in the Prometheus text format with millisecond timestamps, in chunks of about `bytes`. */
export function* prometheusText(metrics: GeneratedMetrics, bytes = 4 * 1024 * 1024): Generator<string> {
  let batch = '';
  for (const chunk of lines(metrics, 'ms')) {
    batch += chunk;
    if (batch.length >= bytes) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}
