import { AppError } from '@binnacle/common/server';
import {
  fetchBlob,
  fetchJsonBlob,
  fetchManifest,
  listCatalog,
  listTags,
  manifestTypes,
} from '../../oci/distribution.ts';
import { RegistryClient } from '../../oci/registry-client.ts';

/** Media types of a Helm chart pushed to an OCI registry (helm push). */
const chartConfigType = 'application/vnd.cncf.helm.config.v1+json';
export const chartLayerType = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';

interface ChartManifest {
  config?: { mediaType?: string; digest?: string; size?: number };
  layers?: { mediaType?: string; digest?: string; size?: number }[];
}

/**
 * The charts of one OCI chart source, read anonymously through the agent's one registry client: a registry
 * that answers 401 with a Bearer challenge gets asked for an anonymous token of that scope (what public
 * registries want). The registry's failures are the chart source's (`chart_source_error`, named by `label`);
 * what is not there stays a 404.
 */
export class OciCharts {
  readonly #client: RegistryClient;
  readonly label: string;

  constructor(host: string, label: string) {
    this.#client = new RegistryClient(host);
    this.label = label;
  }

  async #call<T>(work: (client: RegistryClient) => Promise<T>): Promise<T> {
    try {
      return await work(this.#client);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'not_found') throw error.withContext(this.label);
      if (error.code === 'registry_unauthorized')
        throw new AppError(
          'chart_source_error',
          `${this.label}: the registry ${this.#client.registry} wants credentials; chart sources are read anonymously`,
        );
      throw new AppError('chart_source_error', `${this.label}: ${error.message}`, { cause: error });
    }
  }

  /** Repository names under `prefix/` (the charts of a namespace), from the registry's catalog. */
  async repositories(prefix: string): Promise<string[]> {
    const names = await this.#call((client) => listCatalog(client));
    return names
      .filter((name) => name.startsWith(`${prefix}/`))
      .map((name) => name.slice(prefix.length + 1))
      .filter((name) => !name.includes('/'));
  }

  /** The tags of a repository, with helm's `_` for semver's `+` turned back. */
  async tags(repository: string): Promise<string[]> {
    const tags = await this.#call((client) => listTags(client, repository));
    return tags.map((tag) => tag.replaceAll('_', '+'));
  }

  async #manifest(repository: string, version: string): Promise<ChartManifest> {
    const manifest = await this.#call((client) =>
      fetchManifest(client, repository, version.replaceAll('+', '_'), manifestTypes),
    );
    return manifest.document as ChartManifest;
  }

  /** The chart's Chart.yaml as helm push stored it (the manifest's config, JSON). */
  async chartMetadata(repository: string, version: string): Promise<Record<string, unknown>> {
    const { config } = await this.#manifest(repository, version);
    const digest = config?.mediaType === chartConfigType ? config.digest : undefined;
    if (!digest)
      throw new AppError('chart_source_error', `${this.label}: ${repository}:${version} is not a Helm chart`);
    return this.#call((client) =>
      fetchJsonBlob(client, repository, { digest, size: config?.size }, `the Chart.yaml of ${repository}`),
    );
  }

  /** The packaged chart (.tgz) of one version, at most `maxBytes`. */
  async chartArchive(repository: string, version: string, maxBytes: number): Promise<Buffer> {
    const { layers } = await this.#manifest(repository, version);
    const layer = layers?.find((l) => l.mediaType === chartLayerType);
    const digest = layer?.digest;
    if (!digest)
      throw new AppError(
        'chart_source_error',
        `${this.label}: ${repository}:${version} holds no chart layer`,
      );
    return this.#call((client) => fetchBlob(client, repository, { digest, size: layer.size }, maxBytes));
  }
}
