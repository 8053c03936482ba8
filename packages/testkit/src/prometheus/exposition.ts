import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { GeneratedMetrics, Series } from './model.ts';

const escapeLabel = (value: string) =>
  value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
const labelText = (labels: Record<string, string>) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',')}}`;

/** Unix seconds of every sample: all series share them. */
const sampleTimes = (metrics: GeneratedMetrics) =>
  Array.from(
    { length: Math.floor((metrics.end - metrics.start) / metrics.stepSeconds) + 1 },
    (_, i) => metrics.start + i * metrics.stepSeconds,
  );

/** Writes an OpenMetrics file for `promtool tsdb create-blocks-from openmetrics`, a family's lines together. */
export async function writeOpenMetrics(metrics: GeneratedMetrics, path: string): Promise<void> {
  const out = createWriteStream(path);
  const times = sampleTimes(metrics);
  const byName = Map.groupBy(metrics.series, (s: Series) => s.name);
  for (const family of [...byName.keys()].sort()) {
    for (const series of byName.get(family) ?? []) {
      const prefix = `${series.name}${labelText(series.labels)} `;
      let chunk = '';
      for (const [i, seconds] of times.entries())
        chunk += `${prefix}${series.value(i, seconds)} ${seconds}\n`;
      if (!out.write(chunk)) await once(out, 'drain');
    }
  }
  out.end('# EOF\n');
  await once(out, 'finish');
}

/**
 * The samples as VictoriaMetrics' JSON lines import (/api/v1/import), in chunks of about `bytes`, made as they are
 * read: one line per series holding all its values and timestamps, so labels are written once per series
 * instead of once per sample, and a day of 30 s samples for 10 000 pods never has to be in memory at once.
 */
export function* importLines(metrics: GeneratedMetrics, bytes = 1024 * 1024): Generator<string> {
  const times = sampleTimes(metrics);
  const timestamps = `"timestamps":[${times.map((s) => s * 1000).join(',')}]}\n`;
  let batch = '';
  for (const series of metrics.series) {
    const values = times.map((seconds, i) => series.value(i, seconds));
    batch += `{"metric":${JSON.stringify({ __name__: series.name, ...series.labels })},"values":[${values.join(',')}],${timestamps}`;
    if (batch.length >= bytes) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}
