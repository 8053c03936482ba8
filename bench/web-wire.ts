import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { profileDir } from './profiles.ts';

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

/** One request of a page load, its moments in ms after the first request (the document's). */
export interface LoadedRequest {
  /** Path and query, cut to 100 characters. */
  url: string;
  type: string;
  sent: number;
  /** Headers received. */
  response?: number;
  /** Body complete; for an event stream, its first message instead (the stream stays open). */
  done?: number;
}

interface Seen {
  url: string;
  type: string;
  sent: number;
  encoding?: string;
  response?: number;
  done?: number;
  bytes?: number;
}

/**
 * Records every request a page makes from now on, through the DevTools protocol: `scripts()` sums the scripts
 * that finished, `waterfall()` lists when each request was sent and answered, to see where a page's load goes.
 */
export async function recordLoad(
  cdp: CDPSession,
): Promise<{ scripts(): ScriptsOverWire; waterfall(): LoadedRequest[] }> {
  const seen = new Map<string, Seen>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const url = new URL(event.request.url);
    seen.set(event.requestId, {
      url: `${url.pathname}${url.search}`.slice(0, 100),
      type: event.type ?? 'Other',
      sent: event.timestamp,
    });
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = seen.get(event.requestId);
    if (!request) return;
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    request.type = event.type;
    request.encoding = headers['content-encoding'] ?? 'identity';
    request.response = event.timestamp;
  });
  cdp.on('Network.eventSourceMessageReceived', (event) => {
    const request = seen.get(event.requestId);
    if (request && request.done === undefined) request.done = event.timestamp;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = seen.get(event.requestId);
    if (!request) return;
    request.done ??= event.timestamp;
    request.bytes = event.encodedDataLength;
  });
  await cdp.send('Network.enable');
  return {
    scripts() {
      let bytes = 0;
      let files = 0;
      const encodings: Record<string, number> = {};
      for (const request of seen.values()) {
        if (request.type !== 'Script' || request.bytes === undefined) continue;
        bytes += request.bytes;
        files += 1;
        const encoding = request.encoding ?? 'identity';
        encodings[encoding] = (encodings[encoding] ?? 0) + 1;
      }
      return { bytes, files, encodings };
    },
    waterfall() {
      const requests = [...seen.values()].sort((a, b) => a.sent - b.sent);
      const start = requests[0]?.sent ?? 0;
      // DevTools' timestamps are seconds on a monotonic clock.
      const ms = (at: number | undefined) => (at === undefined ? undefined : Math.round((at - start) * 1000));
      return requests.map((r) => ({
        url: r.url,
        type: r.type,
        sent: ms(r.sent) ?? 0,
        response: ms(r.response),
        done: ms(r.done),
      }));
    },
  };
}

/** The tab's JS heap in use, in MB (what DevTools' Performance monitor shows). */
export async function heapMB(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  return Math.round(used / 1024 / 1024);
}

/**
 * A page with a DevTools session that reports its performance metrics, and that keeps the main thread's long
 * tasks (over 50 ms, the Long Tasks API) of every document it loads for `longTasks`.
 */
export async function instrumentedPage(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await context.newPage();
  // In-page code as text: it runs in Chromium, where the DOM exists, and the bench compiles without DOM types.
  await page.addInitScript(`{
    globalThis.benchLongTasks = [];
    new PerformanceObserver((list) => {
      for (const task of list.getEntries())
        globalThis.benchLongTasks.push([Math.round(task.startTime), Math.round(task.duration)]);
    }).observe({ type: 'longtask', buffered: true });
  }`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

/** The current document's long tasks so far: [start, duration] in ms from its navigation. */
export function longTasks(page: Page): Promise<[number, number][]> {
  return page.evaluate(
    () => (globalThis as unknown as { benchLongTasks: [number, number][] }).benchLongTasks,
  );
}

/**
 * Starts a CPU profile of the page's JavaScript (DevTools' Profiler, sampled every 200 µs); `stop` writes it to
 * bench/profiles/<name>.cpuprofile (it opens in DevTools → Performance) and answers the file.
 */
export async function profilePage(cdp: CDPSession): Promise<{ stop(name: string): Promise<string> }> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop(name) {
      const { profile } = await cdp.send('Profiler.stop');
      await mkdir(profileDir, { recursive: true });
      const file = join(profileDir, `${name}.cpuprofile`);
      await writeFile(file, JSON.stringify(profile));
      return file;
    },
  };
}
