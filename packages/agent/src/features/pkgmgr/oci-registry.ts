import { AppError } from '@binnacle/common/server';

/** Media types of a Helm chart pushed to an OCI registry (helm push). */
const chartConfigType = 'application/vnd.cncf.helm.config.v1+json';
const chartLayerType = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';
const manifestTypes = 'application/vnd.oci.image.manifest.v1+json';
const requestTimeoutMs = 30_000;

interface Manifest {
  config?: { mediaType?: string; digest?: string };
  layers?: { mediaType?: string; digest?: string }[];
}

/** A registry on loopback is a developer's own, served without TLS; every other one is spoken to over https. */
function baseUrl(host: string): string {
  const hostname = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  const loopback = hostname === 'localhost' || hostname === '::1' || hostname.startsWith('127.');
  return `${loopback ? 'http' : 'https'}://${host}`;
}

export const isPlainHttpRegistry = (host: string) => baseUrl(host).startsWith('http:');

/**
 * The parts of the OCI distribution API that list and read charts, anonymously: a registry that answers 401
 * with a Bearer challenge is asked for an anonymous token for that scope first (what public registries want).
 */
export class OciRegistry {
  readonly #base: string;
  readonly label: string;

  constructor(host: string, label: string) {
    this.#base = baseUrl(host);
    this.label = label;
  }

  async #get(path: string, accept: string): Promise<Response> {
    const url = `${this.#base}${path}`;
    const once = (authorization?: string) =>
      fetch(url, {
        headers: { accept, ...(authorization ? { authorization } : {}) },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    try {
      let response = await once();
      const challenge = response.headers.get('www-authenticate');
      if (response.status === 401 && challenge?.startsWith('Bearer ')) {
        await response.body?.cancel();
        response = await once(`Bearer ${await this.#anonymousToken(challenge)}`);
      }
      if (response.status === 404) {
        await response.body?.cancel();
        throw new AppError('not_found', `${this.label}: ${path} not found in the registry`);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new AppError(
          'chart_source_error',
          `${this.label}: the registry answered ${response.status} for ${path}`,
        );
      }
      return response;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('chart_source_error', `${this.label}: ${url} failed: ${(error as Error).message}`);
    }
  }

  async #anonymousToken(challenge: string): Promise<string> {
    const params = Object.fromEntries(
      [...challenge.slice(7).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    if (!params.realm)
      throw new AppError('chart_source_error', `${this.label}: a Bearer challenge without realm`);
    const url = new URL(params.realm);
    if (params.service) url.searchParams.set('service', params.service);
    if (params.scope) url.searchParams.set('scope', params.scope);
    const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
    if (!response.ok)
      throw new AppError('chart_source_error', `${this.label}: no anonymous token (${response.status})`);
    const body = (await response.json()) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw new AppError('chart_source_error', `${this.label}: the token answer holds no token`);
    return token;
  }

  /** Repository names under `prefix/` (the charts of a namespace), from the registry's catalog. */
  async repositories(prefix: string): Promise<string[]> {
    const names: string[] = [];
    let path: string | undefined = '/v2/_catalog?n=1000';
    for (let page = 0; path && page < 50; page += 1) {
      const response = await this.#get(path, 'application/json');
      const body = (await response.json()) as { repositories?: string[] };
      names.push(...(body.repositories ?? []).filter((name) => name.startsWith(`${prefix}/`)));
      path = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return names.map((name) => name.slice(prefix.length + 1)).filter((name) => !name.includes('/'));
  }

  /** The tags of a repository, with helm's `_` for semver's `+` turned back. */
  async tags(repository: string): Promise<string[]> {
    const body = (await (
      await this.#get(`/v2/${repository}/tags/list?n=10000`, 'application/json')
    ).json()) as { tags?: string[] | null };
    return (body.tags ?? []).map((tag) => tag.replaceAll('_', '+'));
  }

  async #manifest(repository: string, version: string): Promise<Manifest> {
    const response = await this.#get(
      `/v2/${repository}/manifests/${version.replaceAll('+', '_')}`,
      manifestTypes,
    );
    return (await response.json()) as Manifest;
  }

  async #blob(repository: string, digest: string): Promise<Buffer> {
    return Buffer.from(await (await this.#get(`/v2/${repository}/blobs/${digest}`, '*/*')).arrayBuffer());
  }

  /** The chart's Chart.yaml as helm push stored it (the manifest's config, JSON). */
  async chartMetadata(repository: string, version: string): Promise<Record<string, unknown>> {
    const manifest = await this.#manifest(repository, version);
    const digest = manifest.config?.mediaType === chartConfigType ? manifest.config.digest : undefined;
    if (!digest)
      throw new AppError('chart_source_error', `${this.label}: ${repository}:${version} is not a Helm chart`);
    return JSON.parse((await this.#blob(repository, digest)).toString('utf8')) as Record<string, unknown>;
  }

  /** The packaged chart (.tgz) of one version. */
  async chartArchive(repository: string, version: string): Promise<Buffer> {
    const manifest = await this.#manifest(repository, version);
    const layer = manifest.layers?.find((l) => l.mediaType === chartLayerType);
    if (!layer?.digest)
      throw new AppError(
        'chart_source_error',
        `${this.label}: ${repository}:${version} holds no chart layer`,
      );
    return this.#blob(repository, layer.digest);
  }
}
