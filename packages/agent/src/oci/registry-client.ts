import type { Readable } from 'node:stream';
import { AppError, notFound } from '@binnacle/common/server';
import { type Dispatcher, request } from 'undici';
import { parseChallenge } from './challenge.ts';

/** How image references name Docker Hub; its API lives elsewhere (`registryBase`). */
export const dockerHub = 'docker.io';

/** A user name and password for one registry, and where they came from (a pull secret). */
export interface RegistryCredentials {
  username: string;
  password: string;
  /** `namespace/secret`, named in answers so a user knows which secret was used; never the secret's values. */
  source: string;
}

export type AuthMethod = 'anonymous' | 'basic' | 'bearer';

export interface RegistryResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

const requestTimeoutMs = 30_000;
const maxRedirects = 5;

const isLoopback = (hostname: string) => {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || bare.startsWith('127.');
};

/** Where a registry's API lives: Docker Hub's API host, plain HTTP for one on loopback (a developer's own). */
export function registryBase(registry: string): string {
  if (registry === dockerHub) return 'https://registry-1.docker.io';
  return `${isLoopback(registry.replace(/:\d+$/, '')) ? 'http' : 'https'}://${registry}`;
}

/** Whether the registry is spoken to without TLS (helm then wants `--plain-http`). */
export const isPlainHttpRegistry = (registry: string) => registryBase(registry).startsWith('http:');

/** Drops an answer's body: undici reports a body destroyed unread as an error, which nobody waits for here. */
export function discard(body: Readable): void {
  body.once('error', () => undefined);
  body.destroy();
}

export const header = (headers: RegistryResponse['headers'], name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The OCI distribution API of one registry for one image's repository: anonymous, Basic, or the token flow
 * (a 401 with `WWW-Authenticate: Bearer realm=…` is answered by asking the realm for a token of that scope,
 * with the credentials when there are some). Every failure becomes an AppError naming the registry; no
 * credential or token ever appears in one.
 */
export class RegistryClient {
  readonly registry: string;
  readonly #base: string;
  readonly #credentials?: RegistryCredentials;
  #authorization?: string;
  #method: AuthMethod = 'anonymous';

  constructor(registry: string, credentials?: RegistryCredentials) {
    this.registry = registry;
    this.#base = registryBase(registry);
    this.#credentials = credentials;
  }

  /** How the last request authenticated. */
  get authMethod(): AuthMethod {
    return this.#method;
  }

  /** GET a registry path (`/v2/<repo>/manifests/<ref>`), authenticating as the registry asks; 2xx answers only. */
  async get(path: string, accept: string): Promise<RegistryResponse> {
    let response = await this.#send(`${this.#base}${path}`, accept, this.#authorization);
    if (response.status === 401) {
      discard(response.body);
      this.#authorization = await this.#authorize(header(response.headers, 'www-authenticate'));
      response = await this.#send(`${this.#base}${path}`, accept, this.#authorization);
    }
    if (response.status >= 200 && response.status < 300) return response;
    discard(response.body);
    if (response.status === 401 || response.status === 403) throw this.#refused();
    if (response.status === 404) throw notFound(`${path} is not in the registry ${this.registry}`);
    throw new AppError(
      'registry_error',
      `the registry ${this.registry} answered ${response.status} for ${path}`,
    );
  }

  #refused(): AppError {
    const how = this.#credentials
      ? `refused the credentials of pull secret ${this.#credentials.source}`
      : 'requires credentials and no pull secret holds any for it';
    return new AppError('registry_unauthorized', `the registry ${this.registry} ${how}`, {
      extra: { registry: this.registry },
    });
  }

  async #authorize(challenge: string | undefined): Promise<string> {
    const parsed = challenge ? parseChallenge(challenge) : undefined;
    const basic = this.#credentials
      ? `Basic ${Buffer.from(`${this.#credentials.username}:${this.#credentials.password}`).toString('base64')}`
      : undefined;
    if (parsed?.scheme === 'bearer') {
      this.#method = 'bearer';
      return `Bearer ${await this.#token(parsed.params, basic)}`;
    }
    if (!basic) throw this.#refused();
    this.#method = 'basic';
    return basic;
  }

  /** A token from the challenge's realm for its service and scope (anonymous without credentials). */
  async #token(params: Record<string, string>, basic: string | undefined): Promise<string> {
    if (!params.realm)
      throw new AppError(
        'registry_error',
        `the registry ${this.registry} sent a Bearer challenge without realm`,
      );
    let url: URL;
    try {
      url = new URL(params.realm);
    } catch {
      throw new AppError(
        'registry_error',
        `the registry ${this.registry} names a token realm that is no URL`,
      );
    }
    if (params.service) url.searchParams.set('service', params.service);
    if (params.scope) url.searchParams.set('scope', params.scope);
    // Credentials travel only encrypted or within this machine, whatever realm a registry names.
    const safe = url.protocol === 'https:' || isLoopback(url.hostname);
    const response = await this.#send(url.toString(), 'application/json', safe ? basic : undefined);
    if (response.status === 401 || response.status === 403) {
      discard(response.body);
      throw this.#refused();
    }
    if (response.status !== 200) {
      discard(response.body);
      throw new AppError(
        'registry_error',
        `the token service of ${this.registry} answered ${response.status}`,
      );
    }
    const body = (await response.body.json().catch(() => ({}))) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw new AppError('registry_error', `the token service of ${this.registry} sent no token`);
    return token;
  }

  /**
   * One GET, following redirects (blob stores hand out signed URLs on other hosts; the credentials stay with
   * the registry's own host and never follow a redirect elsewhere).
   */
  async #send(
    url: string,
    accept: string,
    authorization: string | undefined,
  ): Promise<RegistryResponse & { body: Dispatcher.ResponseData['body'] }> {
    let target = new URL(url);
    const origin = target.origin;
    for (let hop = 0; ; hop += 1) {
      const sameOrigin = target.origin === origin;
      let response: Dispatcher.ResponseData;
      try {
        response = await request(target, {
          method: 'GET',
          headers: {
            accept,
            'user-agent': 'binnacle-agent',
            ...(authorization && sameOrigin ? { authorization } : {}),
          },
          headersTimeout: requestTimeoutMs,
          bodyTimeout: requestTimeoutMs,
        });
      } catch (error) {
        throw new AppError(
          'registry_error',
          `the registry ${this.registry} cannot be reached at ${target.origin}: ${(error as Error).message}`,
        );
      }
      const location = header(response.headers, 'location');
      if (response.statusCode < 300 || response.statusCode >= 400 || !location || hop >= maxRedirects)
        return { status: response.statusCode, headers: response.headers, body: response.body };
      discard(response.body);
      target = new URL(location, target);
    }
  }
}
