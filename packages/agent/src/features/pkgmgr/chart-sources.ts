import { AppError, yamlLimits } from '@binnacle/common/server';
import semver from 'semver';
import type { ChartRepository } from '../../config/helm-repositories.ts';
import { isPlainHttpRegistry } from '../../oci/registry-client.ts';
import { type ChartFiles, maxChartArchiveBytes, readChartArchive, sourceYaml } from './chart-archive.ts';
import { OciCharts } from './oci-charts.ts';

/** One version of a chart as its source lists it (index.yaml entry, or an OCI tag with its Chart.yaml). */
export interface ChartVersion {
  version: string;
  appVersion?: string;
  description?: string;
  created?: string;
  deprecated?: boolean;
  icon?: string;
  home?: string;
  keywords?: string[];
  /** Where the .tgz is (classic repositories only). */
  urls?: string[];
}

export interface RepositoryIndex {
  /** Chart name → its versions, newest first (semver order; versions that are not semver last). */
  charts: Map<string, ChartVersion[]>;
  updated: string;
}

export interface RepositoryStatus {
  name: string;
  url: string;
  type: ChartRepository['type'];
  charts?: number;
  updated?: string;
  error?: string;
}

/** How long a fetched index serves before the next read fetches it again. */
const indexTtlMs = 10 * 60_000;
const maxIndexBytes = 64 << 20;
const requestTimeoutMs = 30_000;

export const newestFirst = (a: ChartVersion, b: ChartVersion) => {
  const [va, vb] = [semver.valid(a.version), semver.valid(b.version)];
  if (va && vb) return semver.rcompare(va, vb);
  return va ? -1 : vb ? 1 : b.version.localeCompare(a.version);
};

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function chartVersion(entry: Record<string, unknown>): ChartVersion {
  return {
    version: String(entry.version ?? ''),
    appVersion: text(entry.appVersion),
    description: text(entry.description),
    created: text(entry.created),
    deprecated: entry.deprecated === true ? true : undefined,
    icon: text(entry.icon),
    home: text(entry.home),
    keywords: Array.isArray(entry.keywords) ? entry.keywords.map(String) : undefined,
    urls: Array.isArray(entry.urls) ? entry.urls.map(String) : undefined,
  };
}

async function download(url: string, label: string, maxBytes: number): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
  } catch (error) {
    throw new AppError('chart_source_error', `${label}: ${url} failed: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AppError(
      response.status === 404 ? 'not_found' : 'chart_source_error',
      `${label}: ${url} answered ${response.status}`,
    );
  }
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw new AppError('chart_source_error', `${label}: ${url} is larger than ${maxBytes >> 20} MiB`);
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > maxBytes)
    throw new AppError('chart_source_error', `${label}: ${url} is larger than ${maxBytes >> 20} MiB`);
  return body;
}

/**
 * The chart sources of `--helm-repositories`, read natively (no helm binary): a classic repository's
 * index.yaml, or an OCI registry's catalog, tags and chart manifests. Indexes are kept for ten minutes
 * (`update` fetches again at once); a source that fails keeps serving its last good index and reports the error.
 */
export class ChartSources {
  readonly #indexes = new Map<
    string,
    { index?: RepositoryIndex; loading?: Promise<RepositoryIndex>; error?: string; at: number }
  >();

  readonly repositories: readonly ChartRepository[];

  constructor(repositories: readonly ChartRepository[]) {
    this.repositories = repositories;
  }

  repository(name: string): ChartRepository {
    const repository = this.repositories.find((r) => r.name === name);
    if (!repository)
      throw new AppError(
        'not_found',
        `no chart repository ${name} (known: ${this.repositories.map((r) => r.name).join(', ') || 'none; set --helm-repositories'})`,
      );
    return repository;
  }

  #registry(repository: ChartRepository): { registry: OciCharts; path: string } {
    const url = new URL(repository.url);
    return { registry: new OciCharts(url.host, repository.name), path: url.pathname.slice(1) };
  }

  async #fetchIndex(repository: ChartRepository): Promise<RepositoryIndex> {
    const charts = new Map<string, ChartVersion[]>();
    if (repository.type === 'http') {
      const raw = await download(`${repository.url}/index.yaml`, repository.name, maxIndexBytes);
      const document = sourceYaml(
        raw.toString('utf8'),
        yamlLimits.index,
        `${repository.name}: index.yaml`,
      ) as {
        entries?: Record<string, Record<string, unknown>[]>;
      } | null;
      for (const [name, entries] of Object.entries(document?.entries ?? {})) {
        if (Array.isArray(entries)) charts.set(name, entries.map(chartVersion).sort(newestFirst));
      }
    } else {
      const { registry, path } = this.#registry(repository);
      for (const name of await registry.repositories(path)) {
        const versions = (await registry.tags(`${path}/${name}`)).map((version) => ({ version }));
        versions.sort(newestFirst);
        const newest = versions[0];
        // The list shows each chart's newest description and appVersion; older versions are read on demand.
        if (newest)
          Object.assign(
            newest,
            chartVersion({
              ...(await registry.chartMetadata(`${path}/${name}`, newest.version)),
              version: newest.version,
            }),
          );
        charts.set(name, versions);
      }
    }
    return { charts, updated: new Date().toISOString() };
  }

  /** The source's index, fetched when older than ten minutes or when `refresh` asks. */
  async index(name: string, refresh = false): Promise<RepositoryIndex> {
    const repository = this.repository(name);
    const entry = this.#indexes.get(name) ?? { at: 0 };
    this.#indexes.set(name, entry);
    if (!refresh && entry.index && Date.now() - entry.at < indexTtlMs) return entry.index;
    if (entry.loading) return entry.loading;
    entry.loading = this.#fetchIndex(repository).then(
      (index) => {
        Object.assign(entry, { index, error: undefined, at: Date.now(), loading: undefined });
        return index;
      },
      (error: unknown) => {
        Object.assign(entry, { error: (error as Error).message, loading: undefined });
        if (entry.index && !refresh) return entry.index;
        throw error;
      },
    );
    return entry.loading;
  }

  /** Every source with its chart count, or the error its last fetch met. */
  async status(): Promise<RepositoryStatus[]> {
    return Promise.all(
      this.repositories.map(async ({ name, url, type }) => {
        const index = await this.index(name).catch(() => undefined);
        const error = this.#indexes.get(name)?.error;
        return {
          name,
          url,
          type,
          charts: index?.charts.size,
          updated: index?.updated,
          ...(error ? { error } : {}),
        };
      }),
    );
  }

  async versions(repo: string, chart: string): Promise<ChartVersion[]> {
    const versions = (await this.index(repo)).charts.get(chart);
    if (!versions) throw new AppError('not_found', `chart repository ${repo} has no chart ${chart}`);
    return versions;
  }

  async version(repo: string, chart: string, version: string): Promise<ChartVersion> {
    const found = (await this.versions(repo, chart)).find((v) => v.version === version);
    if (!found) throw new AppError('not_found', `chart ${repo}/${chart} has no version ${version}`);
    return found;
  }

  /** A version's description and files (values, README, schema) from its package. */
  async files(repo: string, chart: string, version: string): Promise<ChartVersion & ChartFiles> {
    const listed = await this.version(repo, chart, version);
    const repository = this.repository(repo);
    const label = `${repo}/${chart} ${version}`;
    let archive: Buffer;
    if (repository.type === 'oci') {
      const { registry, path } = this.#registry(repository);
      archive = await registry.chartArchive(`${path}/${chart}`, version, maxChartArchiveBytes);
    } else {
      const url = listed.urls?.[0];
      if (!url) throw new AppError('chart_source_error', `${label}: index.yaml gives no URL for it`);
      archive = await download(new URL(url, `${repository.url}/`).href, repo, maxChartArchiveBytes);
    }
    const files = await readChartArchive(archive, label);
    return { ...listed, ...chartVersion({ ...files.metadata, version }), ...files };
  }

  /** What helm needs to find a version: the chart reference and its flags. */
  helmChartArgs(repo: string, chart: string, version: string): string[] {
    const repository = this.repository(repo);
    if (repository.type === 'http') return [chart, '--repo', repository.url, '--version', version];
    const { host } = new URL(repository.url);
    return [
      `${repository.url}/${chart}`,
      '--version',
      version,
      ...(isPlainHttpRegistry(host) ? ['--plain-http'] : []),
    ];
  }
}
