import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../cluster/ports.ts';
import { writeOpenMetrics } from './exposition.ts';
import type { GeneratedMetrics } from './model.ts';
import { type MetricsStoreServer, runStore } from './store-process.ts';

const run = promisify(execFile);

export interface StartStoreOptions {
  log?: (line: string) => void;
}

const missing = (tool: string) =>
  new Error(
    `${tool} is missing: install the Debian package prometheus (apt-get install prometheus; ` +
      '`sh scripts/bootstrap.sh test` does it as root)',
  );

/**
 * Debian's Prometheus on a free 127.0.0.1 port with the remote-write receiver on, its TSDB filled beforehand with
 * the generated history through `promtool tsdb create-blocks-from openmetrics`, so range queries have hours of
 * data from the first request.
 */
export async function startPrometheus(
  metrics: GeneratedMetrics,
  options: StartStoreOptions = {},
): Promise<MetricsStoreServer> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-prometheus-'));
  const data = join(dir, 'data');
  const source = join(dir, 'history.om');
  try {
    await run('prometheus', ['--version']).catch(() => {
      throw missing('prometheus');
    });
    await writeOpenMetrics(metrics, source);
    await run('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', source, data], {
      timeout: 180_000,
      maxBuffer: 16 << 20,
    }).catch((error: NodeJS.ErrnoException & { stderr?: string }) => {
      if (error.code === 'ENOENT') throw missing('promtool');
      throw new Error(`promtool could not backfill the history: ${error.stderr?.trim() || error.message}`);
    });
    await rm(source);
    await writeFile(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1m\n');
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  log(
    `backfilled ${metrics.samples} samples of ${metrics.series.length} series in ${Date.now() - started} ms`,
  );
  const port = await freePort();
  const server = await runStore({
    kind: 'prometheus',
    binary: 'prometheus',
    args: [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      // Backfilled blocks reach hours back; the default 15 days would keep them anyway, but say it.
      '--storage.tsdb.retention.time=30d',
      '--log.level=warn',
    ],
    port,
    dir,
    logFile: join(dir, 'prometheus.log'),
    readyPath: '/-/ready',
  });
  log(`Prometheus ready at ${server.url} in ${Date.now() - started} ms`);
  return server;
}
