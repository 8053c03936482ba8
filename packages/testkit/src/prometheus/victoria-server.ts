import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../cluster/paths.ts';
import { freePort } from '../cluster/ports.ts';
import { prometheusText } from './exposition.ts';
import type { GeneratedMetrics } from './model.ts';
import type { StartStoreOptions } from './prometheus-server.ts';
import { type MetricsStoreServer, runStore } from './store-process.ts';

const run = promisify(execFile);

/** Builds VictoriaMetrics single-node once from the Go module proxy (cached by go.sum) and returns its path. */
export async function victoriaMetricsBinary(): Promise<string> {
  const script = join(repoRoot, 'test/cluster/go/victoriametrics/build.sh');
  const { stdout } = await run('bash', [script], { maxBuffer: 1 << 20, timeout: 900_000 }).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(`building VictoriaMetrics failed: ${error.stderr?.trim() || error.message}`);
    },
  );
  return stdout.trim().split('\n').at(-1) ?? '';
}

/**
 * VictoriaMetrics single-node on a free 127.0.0.1 port, fed with the generated history through its
 * /api/v1/import/prometheus endpoint and flushed, so every sample is searchable when this resolves.
 */
export async function startVictoriaMetrics(
  metrics: GeneratedMetrics,
  options: StartStoreOptions = {},
): Promise<MetricsStoreServer> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const binary = await victoriaMetricsBinary();
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-victoriametrics-'));
  const port = await freePort();
  const server = await runStore({
    kind: 'victoriametrics',
    binary,
    args: [
      `-storageDataPath=${join(dir, 'data')}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=100y',
      // Answer the newest samples at once instead of hiding the last 30 s (a default meant for scraping lag).
      '-search.latencyOffset=0s',
      '-loggerLevel=WARN',
    ],
    port,
    dir,
    logFile: join(dir, 'victoria-metrics.log'),
    readyPath: '/health',
  });
  try {
    for (const body of prometheusText(metrics)) {
      const response = await fetch(`${server.url}/api/v1/import/prometheus`, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(60_000),
      });
      if (!response.ok)
        throw new Error(`VictoriaMetrics import: ${response.status} ${await response.text()}`);
    }
    const flushed = await fetch(`${server.url}/internal/force_flush`, {
      signal: AbortSignal.timeout(30_000),
    });
    if (!flushed.ok) throw new Error(`VictoriaMetrics flush: ${flushed.status}`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  log(`VictoriaMetrics ready at ${server.url} with ${metrics.samples} samples in ${Date.now() - started} ms`);
  return server;
}
