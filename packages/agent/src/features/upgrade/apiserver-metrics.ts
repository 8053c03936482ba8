import { createInterface } from 'node:readline';
import { AppError } from '@binnacle/common/server';
import type { Impersonation, KubeClient } from '../../kube/client.ts';

/** One deprecated API the API server was asked for since it started, as its own gauge names it. */
export interface RequestedApi {
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  /** The release that removes it; none when no removal is scheduled. */
  removedRelease?: string;
}

/** The API server's `apiserver_requested_deprecated_apis`, or why it could not be read. */
export interface ApiServerMetrics {
  available: boolean;
  reason?: string;
  requested: RequestedApi[];
}

const metric = 'apiserver_requested_deprecated_apis';
const maxRequested = 1000;
const labelPattern = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** A sample line's labels and value: `name{a="x",b="y"} 1`. */
export function parseSample(line: string): { labels: Record<string, string>; value: number } | undefined {
  const close = line.lastIndexOf('}');
  if (!line.startsWith(`${metric}{`) || close < 0) return undefined;
  const labels: Record<string, string> = {};
  for (const [, key = '', value = ''] of line.slice(metric.length + 1, close).matchAll(labelPattern))
    labels[key] = value.replace(/\\(.)/g, '$1');
  return {
    labels,
    value: Number(
      line
        .slice(close + 1)
        .trim()
        .split(' ')[0],
    ),
  };
}

export function requestedOf(labels: Record<string, string>): RequestedApi {
  return {
    group: labels.group ?? '',
    version: labels.version ?? '',
    resource: labels.resource ?? '',
    ...(labels.subresource ? { subresource: labels.subresource } : {}),
    ...(labels.removed_release ? { removedRelease: labels.removed_release } : {}),
  };
}

/**
 * Reads the gauge from the API server's `/metrics` as the caller (a non-resource URL: RBAC's `get /metrics`
 * decides), line by line, and stops once the metric's block is over. A refusal or failure is told in `reason`,
 * never the report's failure.
 */
export async function requestedDeprecatedApis(
  client: KubeClient,
  as: Impersonation | undefined,
): Promise<ApiServerMetrics> {
  let stream: Awaited<ReturnType<KubeClient['stream']>>;
  try {
    stream = await client.stream({ path: '/metrics', accept: 'text/plain', as, timeoutMs: 10_000 });
  } catch (error) {
    const why = error instanceof AppError ? `${error.code}: ${error.message}` : String(error);
    return { available: false, reason: `the API server's /metrics cannot be read (${why})`, requested: [] };
  }
  const requested: RequestedApi[] = [];
  let inBlock = false;
  const lines = createInterface({ input: stream.body, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) {
      const sample = parseSample(line);
      if (!sample) {
        if (inBlock && !line.startsWith('#')) break;
        continue;
      }
      inBlock = true;
      if (sample.value > 0 && requested.length < maxRequested) requested.push(requestedOf(sample.labels));
    }
  } finally {
    lines.close();
    stream.body.destroy();
  }
  return { available: true, requested };
}
