import net from 'node:net';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface CountingProxy {
  url: string;
  /** Bytes the browser received (down) and sent (up) since the last reset, headers and framing included. */
  counts: { down: number; up: number };
  reset(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of the agent that counts every byte each way: what really crosses the wire, whatever the
 * page does (fetches, SSE, WebSockets), compressed or not.
 */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const counts = { down: 0, up: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      counts.up += chunk.length;
    });
    upstream.on('data', (chunk: Buffer) => {
      counts.down += chunk.length;
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    counts,
    reset() {
      counts.down = 0;
      counts.up = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface ScriptsOverWire {
  /** Bytes of every script the page loaded as they came (Network.loadingFinished encodedDataLength). */
  bytes: number;
  files: number;
  /** Content-Encoding of each script answer, counted: what the browser negotiated. */
  encodings: Record<string, number>;
}

/**
 * Records the scripts a page loads over the wire from now on, through the DevTools protocol; `read()` sums
 * those that finished.
 */
export async function recordScripts(cdp: CDPSession): Promise<{ read(): ScriptsOverWire }> {
  const scripts = new Map<string, string>();
  const finished = new Map<string, number>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type !== 'Script') return;
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    scripts.set(event.requestId, headers['content-encoding'] ?? 'identity');
  });
  cdp.on('Network.loadingFinished', (event) => {
    finished.set(event.requestId, event.encodedDataLength);
  });
  await cdp.send('Network.enable');
  return {
    read() {
      let bytes = 0;
      let files = 0;
      const encodings: Record<string, number> = {};
      for (const [id, encoding] of scripts) {
        const size = finished.get(id);
        if (size === undefined) continue;
        bytes += size;
        files += 1;
        encodings[encoding] = (encodings[encoding] ?? 0) + 1;
      }
      return { bytes, files, encodings };
    },
  };
}

/** The tab's JS heap in use, in MB (what DevTools' Performance monitor shows). */
export async function heapMB(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  return Math.round(used / 1024 / 1024);
}

/** A page with a DevTools session that reports its performance metrics. */
export async function instrumentedPage(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}
