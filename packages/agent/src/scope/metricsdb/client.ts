import { AppError } from '@binnacle/common/server';

/** How to reach one store: its base URL (the Prometheus API lives under `<url>/api/v1`) and the headers it needs. */
export interface StoreEndpoint {
  url: string;
  headers: Record<string, string>;
}

export type StoreKind = 'prometheus' | 'victoriametrics';

export interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}
export interface MatrixSeries {
  metric: Record<string, string>;
  values: [number, string][];
}
export type QueryData =
  | { resultType: 'vector'; result: VectorSample[] }
  | { resultType: 'matrix'; result: MatrixSeries[] }
  | { resultType: 'scalar' | 'string'; result: [number, string] };

/** A label value inside double quotes in PromQL. */
export const quote = (value: string) => JSON.stringify(value);

/** The store could not be reached or failed (network, time-out, 5xx, refused credentials): it is unavailable. */
export class StoreUnavailable extends Error {}

interface ApiAnswer<T> {
  status?: 'success' | 'error';
  data?: T;
  errorType?: string;
  error?: string;
}

/**
 * A small client of the Prometheus HTTP API (which VictoriaMetrics, Thanos and Mimir speak too). A query the
 * store refuses (`bad_data`, 400/422) is the caller's mistake: 400 `invalid_query` with the store's words.
 * Everything else wrong is `StoreUnavailable`.
 */
export async function callStore<T>(
  endpoint: StoreEndpoint,
  path: string,
  params: Record<string, string>,
  timeoutMs: number,
): Promise<T> {
  const url = `${endpoint.url.replace(/\/$/, '')}${path}`;
  // Queries go as form posts (no URL length limit); the status endpoints answer GET only.
  const form = Object.keys(params).length > 0;
  let response: Response;
  try {
    response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: form
        ? { ...endpoint.headers, 'content-type': 'application/x-www-form-urlencoded' }
        : endpoint.headers,
      body: form ? new URLSearchParams(params) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describe(error);
    throw new StoreUnavailable(`${endpoint.url}: ${reason}`);
  }
  const text = await response.text().catch(() => '');
  let answer: ApiAnswer<T> | undefined;
  try {
    answer = JSON.parse(text) as ApiAnswer<T>;
  } catch {
    answer = undefined;
  }
  if (response.ok && answer?.status === 'success' && answer.data !== undefined) return answer.data;
  if ((response.status === 400 || response.status === 422) && answer?.error)
    throw new AppError('invalid_query', `the metrics store refused the query: ${answer.error}`);
  if (response.status === 401 || response.status === 403)
    throw new StoreUnavailable(`${endpoint.url}: credentials refused (HTTP ${response.status})`);
  const detail = answer?.error ?? text.slice(0, 200).trim();
  throw new StoreUnavailable(
    `${endpoint.url}: HTTP ${response.status}${detail ? ` (${detail})` : ''} — not a Prometheus API answer`,
  );
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

export const instantQuery = (endpoint: StoreEndpoint, query: string, timeMs: number, timeoutMs: number) =>
  callStore<QueryData>(
    endpoint,
    '/api/v1/query',
    { query, time: String(timeMs / 1000), timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s` },
    timeoutMs,
  );

export const rangeQuery = (
  endpoint: StoreEndpoint,
  query: string,
  window: { startMs: number; endMs: number; stepMs: number },
  timeoutMs: number,
) =>
  callStore<QueryData>(
    endpoint,
    '/api/v1/query_range',
    {
      query,
      start: String(window.startMs / 1000),
      end: String(window.endMs / 1000),
      step: String(window.stepMs / 1000),
      timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s`,
    },
    timeoutMs,
  );

/**
 * Which store this is and its version. Prometheus (and Thanos, Mimir) report revision and Go version in their
 * build info; VictoriaMetrics reports only a compatibility version there and answers `/api/v1/status/tsdb` with
 * its own fields, so a build info without a revision is taken as VictoriaMetrics.
 */
export async function identify(endpoint: StoreEndpoint, timeoutMs: number) {
  const info = await callStore<{ version?: string; revision?: string; goVersion?: string }>(
    endpoint,
    '/api/v1/status/buildinfo',
    {},
    timeoutMs,
  );
  // The build info proves an API; a query proves it answers PromQL.
  await instantQuery(endpoint, 'vector(1)', Date.now(), timeoutMs);
  const kind: StoreKind = info.revision || info.goVersion ? 'prometheus' : 'victoriametrics';
  return { kind, version: info.version ?? 'unknown' };
}
