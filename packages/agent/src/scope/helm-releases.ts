import { gunzipSync } from 'node:zlib';
import type { KubeObject } from '@binnacle/common';

/** A release as Helm stores it in a `helm.sh/release.v1` Secret (the fields the agent reads). */
export interface StoredRelease {
  name: string;
  namespace: string;
  version: number;
  info?: {
    status?: string;
    description?: string;
    first_deployed?: string;
    last_deployed?: string;
    notes?: string;
  };
  chart?: {
    metadata?: {
      name?: string;
      version?: string;
      appVersion?: string;
      icon?: string;
      description?: string;
      dependencies?: { name?: string; version?: string; repository?: string }[];
    };
    /** The chart's default values. */
    values?: Record<string, unknown>;
  };
  /** The values the user supplied. */
  config?: Record<string, unknown>;
  manifest?: string;
  hooks?: StoredHook[];
}

/** A chart hook as Helm records it in the revision that ran it (its run's phase and times, its delete policies). */
export interface StoredHook {
  name?: string;
  kind?: string;
  manifest?: string;
  events?: string[];
  weight?: number;
  delete_policies?: string[];
  last_run?: { phase?: string; started_at?: string; completed_at?: string };
}

export interface ReleaseSummary {
  name: string;
  namespace: string;
  revision: number;
  status: string;
  chart: string;
  chartVersion: string;
  appVersion?: string;
  updated?: string;
  description?: string;
}

export const helmSecretType = 'helm.sh/release.v1';
const gzipMagic = [0x1f, 0x8b];

/**
 * Decodes a release Secret: the Secret's data is base64 (Kubernetes), holding base64 (Helm) of gzipped JSON.
 * Helm writes it without gzip when compression is off, so the magic bytes decide.
 */
export function decodeRelease(secret: KubeObject): StoredRelease {
  const data = (secret.data as Record<string, string> | undefined)?.release;
  if (!data)
    throw new Error(`secret ${secret.metadata?.namespace}/${secret.metadata?.name} holds no release`);
  const helmText = Buffer.from(data, 'base64').toString('latin1');
  const raw = Buffer.from(helmText, 'base64');
  const json = raw[0] === gzipMagic[0] && raw[1] === gzipMagic[1] ? gunzipSync(raw) : raw;
  return JSON.parse(json.toString('utf8')) as StoredRelease;
}

export function isReleaseSecret(secret: KubeObject): boolean {
  return secret.type === helmSecretType && secret.metadata?.labels?.owner === 'helm';
}

const revisionOf = (secret: KubeObject) => Number(secret.metadata?.labels?.version ?? 0);

/** The newest revision's Secret of every release, found from labels without decoding the others. */
export function latestRevisions(secrets: KubeObject[]): KubeObject[] {
  const latest = new Map<string, KubeObject>();
  for (const secret of secrets) {
    if (!isReleaseSecret(secret)) continue;
    const key = `${secret.metadata?.namespace}/${secret.metadata?.labels?.name}`;
    const current = latest.get(key);
    if (!current || revisionOf(secret) > revisionOf(current)) latest.set(key, secret);
  }
  return [...latest.values()];
}

export function summarizeRelease(release: StoredRelease): ReleaseSummary {
  const meta = release.chart?.metadata ?? {};
  return {
    name: release.name,
    namespace: release.namespace,
    revision: release.version,
    status: release.info?.status ?? 'unknown',
    chart: meta.name ?? '',
    chartVersion: meta.version ?? '',
    appVersion: meta.appVersion,
    updated: release.info?.last_deployed,
    description: release.info?.description,
  };
}

/** Decoding is the expensive part; results are kept per Secret uid and resourceVersion. */
export class ReleaseDecoder {
  readonly #cache = new Map<string, { resourceVersion?: string; release: StoredRelease }>();
  readonly #max: number;

  constructor(max = 2000) {
    this.#max = max;
  }

  decode(secret: KubeObject): StoredRelease {
    const key = secret.metadata?.uid ?? `${secret.metadata?.namespace}/${secret.metadata?.name}`;
    const hit = this.#cache.get(key);
    if (hit && hit.resourceVersion === secret.metadata?.resourceVersion) return hit.release;
    const release = decodeRelease(secret);
    if (this.#cache.size >= this.#max) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(key, { resourceVersion: secret.metadata?.resourceVersion, release });
    return release;
  }
}
