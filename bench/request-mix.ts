import { memoryOf, sampleRss } from './process-memory.ts';

export const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;

/** What a UI and an assistant ask a synced agent for, one request at a time, in rounds. */
const routes = {
  /** Every pod as the API holds it, paged at the largest page the route allows (an assistant, `kubectl get`). */
  podList: '/api/resources/pods?limit=10000',
  /** The projection the web UI's tables read. */
  podSummary: '/api/resources/pods?limit=10000&summary=true',
  topology: '/api/topology',
  dashboard: '/api/dashboard',
} as const;
export type MixRoute = keyof typeof routes;

export interface MixResult {
  rounds: number;
  /** Per route: p50 and worst answer time (the whole body read), and bytes of one answer. */
  routes: Record<MixRoute, { p50Ms: number; worstMs: number; bytes: number }>;
  /** Highest RSS sampled every 50 ms while the mix ran, with its anonymous and file-backed parts. */
  rssDuringMB: number;
  rssDuringAnonMB: number;
  rssDuringFileMB: number;
  /** The agent's own heap in use (its /api/health), the highest of a reading after each round. */
  heapUsedDuringMB: number;
  /** RSS right after the last answer. */
  rssAfterMB: number;
}

/** Reads every page of a list, the way a client follows `continue`; returns the bytes it read. */
async function readAll(url: string, path: string): Promise<number> {
  let bytes = 0;
  let token: string | undefined;
  do {
    const res = await fetch(`${url}${path}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${body.slice(0, 200)}`);
    bytes += body.length;
    token = path.startsWith('/api/resources/')
      ? (JSON.parse(body) as { continue?: string }).continue || undefined
      : undefined;
  } while (token);
  return bytes;
}

/**
 * `rounds` rounds of a full pod list, a summary list, the whole-cluster topology and the dashboard, one request at
 * a time (what a user's tabs and an assistant send over a few minutes, back to back), with the agent's RSS sampled
 * meanwhile.
 */
export async function serveRequestMix(url: string, pid: number | undefined, rounds = 20): Promise<MixResult> {
  const times: Record<MixRoute, number[]> = { podList: [], podSummary: [], topology: [], dashboard: [] };
  const bytes: Record<MixRoute, number> = { podList: 0, podSummary: 0, topology: 0, dashboard: 0 };
  let sampled = { peakRssMB: 0, peakAnonMB: 0, peakFileMB: 0 };
  let heapUsedDuringMB = 0;
  // Every 50 ms, for at most an hour of requests.
  const stopSampling = sampleRss(pid, 50, 72_000);
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, path] of Object.entries(routes) as [MixRoute, string][]) {
        const started = performance.now();
        bytes[name] = await readAll(url, path);
        times[name].push(performance.now() - started);
      }
      const health = (await (await fetch(`${url}/api/health`)).json()) as { runtime: { heapUsedMB: number } };
      heapUsedDuringMB = Math.max(heapUsedDuringMB, health.runtime.heapUsedMB);
    }
  } finally {
    sampled = await stopSampling();
  }
  const summary = (name: MixRoute) => ({
    p50Ms: Math.round(quantile(times[name], 0.5) * 10) / 10,
    worstMs: Math.round(Math.max(...times[name])),
    bytes: bytes[name],
  });
  return {
    rounds,
    routes: {
      podList: summary('podList'),
      podSummary: summary('podSummary'),
      topology: summary('topology'),
      dashboard: summary('dashboard'),
    },
    rssDuringMB: sampled.peakRssMB,
    rssDuringAnonMB: sampled.peakAnonMB,
    rssDuringFileMB: sampled.peakFileMB,
    heapUsedDuringMB,
    rssAfterMB: (await memoryOf(pid)).rssMB,
  };
}
