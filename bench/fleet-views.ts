import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'undici';
import { quantile } from './http-load.ts';

const rows = <T>(count: number, row: (i: number) => T) => Array.from({ length: count }, (_, i) => row(i));

/**
 * What an agent answers on each route a fleet view asks (docs/fleet.md), canned at the size of a troubled
 * cluster's list: twenty problems and findings, ten certificates and packages, five search hits. The rows
 * carry every field the hub's row schemas require, so the hub serializes them as it would an agent's.
 */
export function fleetAgentAnswers(): Record<string, string> {
  const problems = rows(20, (i) => ({
    kind: 'Pod',
    namespace: 'shop',
    name: `web-${i}`,
    status: 'Running',
    reason: 'CrashLoopBackOff',
    message: 'back-off 5m0s restarting failed container',
    ageSeconds: 600 + i,
    source: 'health',
  }));
  const certificates = rows(10, (i) => ({
    kind: 'Secret',
    namespace: 'shop',
    name: `tls-${i}`,
    severity: i < 2 ? 'critical' : 'ok',
    daysLeft: i < 2 ? 5 : 80 + i,
    notAfter: '2027-03-01T00:00:00Z',
    problems: [],
  }));
  const findings = rows(20, (i) => ({
    kind: 'Deployment',
    namespace: 'shop',
    name: `web-${i}`,
    checkId: 'runAsNonRoot',
    category: 'Security',
    severity: i % 4 === 0 ? 'danger' : 'warning',
    message: 'the container may run as root',
    container: 'web',
  }));
  const packages = rows(10, (i) => ({
    chart: `chart-${i}`,
    namespace: 'shop',
    releaseName: `release-${i}`,
    version: '1.2.3',
    appVersion: '4.5.6',
    health: 'healthy',
    sources: ['helm'],
  }));
  const upgrades = Object.fromEntries(
    packages.map((p, i) => [
      `${p.namespace}/${p.releaseName}`,
      {
        latestVersion: i % 3 === 0 ? '1.3.0' : '1.2.3',
        updateAvailable: i % 3 === 0,
        repositoryName: 'bench',
      },
    ]),
  );
  const hits = rows(5, (i) => ({
    kind: 'Deployment',
    group: 'apps',
    namespace: 'shop',
    name: `checkout-${i}`,
    summary: `Deployment shop/checkout-${i}: 3/3 ready`,
  }));
  const json = (value: unknown) => JSON.stringify(value);
  return {
    '/api/dashboard': json({
      problems,
      health: { healthy: 80, warning: 5, error: 20, warningEvents: 3 },
      loading: [],
    }),
    '/api/secrets/certificate-expiry': json({
      items: certificates,
      summary: { expired: 0, invalid: 0, critical: 2, warning: 0, ok: 8 },
      loading: [],
    }),
    '/api/audit': json({ findings, summary: { passing: 180, warning: 15, danger: 5 }, loading: [] }),
    '/api/packages': json({ packages, loading: [] }),
    '/api/pkgmgr/upgrade-check': json({ releases: upgrades }),
    '/api/search': json({ hits, loading: [] }),
  };
}

/** Every fleet view of the hub, with the query it is asked with (search needs words). */
export const fleetViews = [
  '/api/fleet/problems',
  '/api/fleet/certs',
  '/api/fleet/audit',
  '/api/fleet/packages',
  '/api/fleet/search?q=checkout',
] as const;

export interface ViewFigures {
  path: string;
  clusters: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** `total` of the last answer: rows from every cluster. */
  rows: number;
  /** Time spent waiting out 429s (the caller's fan-out bucket), not counted in any latency. */
  waitedMs: number;
}

export interface SampleOptions {
  samples: number;
  /** Bounds the loop, waits for the bucket included. */
  maxSeconds: number;
  /** Run before each timed request (not timed), e.g. emptying the caller's bucket of an in-process hub. */
  before?: () => void | Promise<void>;
}

const ms = (value: number) => Math.round(value * 100) / 100;

/**
 * GETs one fleet view one request at a time as `cookie`, `samples` times or until `maxSeconds`; each answer
 * must be a 200 naming exactly `clusters` clusters, every one `ok`. The caller's fan-out bucket (30 calls per
 * minute) refuses with 429 and Retry-After past it: the loop sleeps that long and asks again, untimed.
 */
export async function sampleFleetView(
  pool: Pool,
  cookie: string,
  path: string,
  clusters: number,
  options: SampleOptions,
): Promise<ViewFigures> {
  const latencies = new Float64Array(options.samples);
  const until = performance.now() + options.maxSeconds * 1000;
  let measured = 0;
  let rows = 0;
  let waitedMs = 0;
  while (measured < options.samples && performance.now() < until) {
    await options.before?.();
    const started = performance.now();
    const res = await pool.request({ method: 'GET', path, headers: { cookie } });
    const text = await res.body.text();
    const took = performance.now() - started;
    if (res.statusCode === 429) {
      const waitMs = Math.min(Number(res.headers['retry-after']) * 1000, until - performance.now());
      if (!(waitMs > 0)) break;
      await sleep(waitMs);
      waitedMs += waitMs;
      continue;
    }
    const answer = JSON.parse(text) as {
      total?: number;
      errors?: unknown[];
      clusters?: { status: string }[];
    };
    const ok = answer.clusters?.filter((c) => c.status === 'ok').length;
    if (res.statusCode !== 200 || answer.errors?.length || ok !== clusters)
      throw new Error(
        `GET ${path} answered ${res.statusCode} with ${ok} of ${clusters} clusters ok: ${text.slice(0, 500)}`,
      );
    rows = answer.total ?? 0;
    latencies[measured++] = took;
  }
  if (measured === 0) throw new Error(`GET ${path}: no answer within ${options.maxSeconds} s`);
  const sorted = latencies.subarray(0, measured).sort();
  return {
    path,
    clusters,
    requests: measured,
    p50Ms: ms(quantile(sorted, 0.5)),
    p99Ms: ms(quantile(sorted, 0.99)),
    maxMs: ms(sorted[measured - 1] ?? 0),
    rows,
    waitedMs: Math.round(waitedMs),
  };
}
