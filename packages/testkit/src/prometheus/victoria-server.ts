import { mkdtemp } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { goToolBinary } from '../cluster/go-tool.ts';
import { freePort } from '../cluster/ports.ts';
import { importLines } from './exposition.ts';
import type { GeneratedMetrics } from './model.ts';
import type { StartStoreOptions } from './prometheus-server.ts';
import { type MetricsStoreServer, runStore } from './store-process.ts';

/** Builds VictoriaMetrics single-node once from the Go module proxy (cached by go.sum) and returns its path. */
export const victoriaMetricsBinary = () => goToolBinary('victoriametrics', 'VictoriaMetrics');

/**
 * POSTs the chunks as one request, each made when the socket has taken the last: the generator runs synchronously,
 * and a body it feeds without waiting for the socket to drain would starve the event loop and hold a day of samples
 * for 10 000 pods in memory before the store had parsed any.
 */
async function post(url: string, chunks: Iterable<string>, timeoutMs: number): Promise<void> {
  const req = request(url, { method: 'POST', signal: AbortSignal.timeout(timeoutMs) });
  const answered = new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
  await pipeline(Readable.from(chunks), req);
  const res = await answered;
  const body = await text(res);
  if ((res.statusCode ?? 0) >= 300) throw new Error(`VictoriaMetrics import: ${res.statusCode} ${body}`);
}

/**
 * VictoriaMetrics single-node on a free 127.0.0.1 port, fed with the generated history through its
 * /api/v1/import endpoint and flushed, so every sample is searchable when this resolves. The history is
 * streamed, generated as the store reads it: generating and parsing overlap.
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
    // A guard against a stalled import, not a speed goal: a minute, plus a second per 500 000 samples.
    await post(
      `${server.url}/api/v1/import`,
      importLines(metrics),
      60_000 + Math.ceil(metrics.samples / 500),
    );
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
