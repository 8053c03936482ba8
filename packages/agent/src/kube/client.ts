import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { type AppError, forbidden } from '@binnacle/common/server';
import { Agent, type Dispatcher, request } from 'undici';
import { fromKubeResponse, fromNetworkError } from './api-errors.ts';
import type { ClusterTarget } from './kubeconfig.ts';
import { refuseWritesWhileReading } from './read-only.ts';

/** Who a request acts as: the caller's identity, forwarded as impersonation headers. */
export interface Impersonation {
  user: string;
  groups: readonly string[];
}

export type QueryValue = string | number | boolean | undefined;

export interface KubeRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** An API path such as /api/v1/namespaces/default/pods. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-encoded unless a string or Buffer. */
  body?: unknown;
  contentType?: string;
  accept?: string;
  as?: Impersonation;
  signal?: AbortSignal;
  /** Time to the response headers (default 30 s). Streams have no body timeout. */
  timeoutMs?: number;
}

export interface KubeStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

const defaultTimeoutMs = 30_000;
const maxErrorBodyBytes = 64 * 1024;

/**
 * An impersonated name as a header value. Header values travel as latin1; a UTF-8 group name must reach the API
 * server as its UTF-8 bytes. The API server trims header values, so a blank name would mean "no
 * impersonation" (the agent itself) and a padded one a different name: both are refused here, whatever
 * checked the caller before.
 */
function headerValue(value: string): string {
  if (value.trim() === '' || value.trim() !== value)
    throw forbidden(`refusing to act as ${JSON.stringify(value)}: a blank or padded name`);
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** The connections of a client: one keep-alive pool per protocol. */
interface Pool {
  direct: Dispatcher;
  /**
   * Impersonated requests go over HTTP/1.1: over HTTP/2, undici folds repeated headers into one comma-joined
   * value, and the API server would see the groups as a single group named "a, b".
   */
  impersonating: Dispatcher;
}

/**
 * Failures of the connection a request went over rather than of the server behind it: an HTTP/2 session or
 * stream that broke (`ERR_HTTP2_*`, undici's GOAWAY and frame errors), a socket closed under the request. A
 * new connection fixes them; a refused connection, a TLS or DNS failure it would not.
 */
export function brokenConnection(error: unknown): boolean {
  const err = error as { code?: unknown; cause?: { code?: unknown } };
  const code = String(err?.code ?? '');
  const cause = String(err?.cause?.code ?? '');
  return [code, cause].some(
    (c) => c.startsWith('ERR_HTTP2_') || c === 'UND_ERR_SOCKET' || c === 'UND_ERR_INFO' || c === 'ECONNRESET',
  );
}

export interface KubeClientOptions {
  /** Told when the client replaced its connections, and why. */
  onReconnect?: (reason: string) => void;
}

/**
 * The agent's HTTP client for one Kubernetes API server (undici, keep-alive pool). It sends impersonation with
 * one `Impersonate-Group` line per group — never through fetch, which joins repeated headers into one value —
 * and turns every failure into an AppError through the one Kubernetes error adapter.
 *
 * A broken connection is replaced rather than waited out (ADR 0050): undici keeps sending new requests over an
 * HTTP/2 session whose streams fail or that stopped answering, so the client swaps in a new pool (closing the
 * old one with every request on it) when a request fails with `brokenConnection`, or when `reconnect` finds
 * that a fresh connection answers where the pool did not. `generation` counts the swaps.
 */
export class KubeClient {
  readonly target: ClusterTarget;
  readonly #agentOptions: Agent.Options;
  readonly #options: KubeClientOptions;
  #pool: Pool;
  #generation = 0;
  #closed = false;

  constructor(target: ClusterTarget, options: KubeClientOptions = {}) {
    this.target = target;
    this.#options = options;
    this.#agentOptions = {
      connect: {
        ca: target.tls.ca,
        cert: target.tls.cert,
        key: target.tls.key,
        rejectUnauthorized: target.tls.rejectUnauthorized,
        servername: target.tls.servername,
      },
      keepAliveTimeout: 30_000,
      // Watches hold a connection each; do not let them starve ordinary requests.
      connections: null,
    };
    this.#pool = this.#newPool();
  }

  #newPool(): Pool {
    return {
      direct: new Agent(this.#agentOptions),
      impersonating: new Agent({ ...this.#agentOptions, allowH2: false }),
    };
  }

  /** How many times the connections were replaced: a request that failed in another generation met a swap. */
  get generation(): number {
    return this.#generation;
  }

  /** Swaps in `next` (or a new pool) for `broken` unless that was swapped out already; ends the old pool's requests. */
  #replace(broken: Pool, reason: string, next: Pool = this.#newPool()): void {
    if (this.#pool !== broken || this.#closed) {
      void KubeClient.#destroy(next);
      return;
    }
    this.#pool = next;
    this.#generation += 1;
    this.#options.onReconnect?.(reason);
    void KubeClient.#destroy(broken);
  }

  static async #destroy(pool: Pool): Promise<void> {
    await Promise.all([pool.direct.destroy(), pool.impersonating.destroy()]).catch(() => undefined);
  }

  /**
   * Asks `path` over a new connection; when it answers, the new connections replace the pool (whose requests
   * end) and this resolves true. For a pool that stopped answering while the server did not: a half-open
   * HTTP/2 session sends nothing back and undici keeps using it.
   */
  async reconnect(path: string, timeoutMs: number): Promise<boolean> {
    const current = this.#pool;
    const next = this.#newPool();
    try {
      const res = await request(this.url(path), {
        headers: await this.#headers({ path }),
        dispatcher: next.direct,
        headersTimeout: timeoutMs,
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}`);
    } catch {
      await KubeClient.#destroy(next);
      return false;
    }
    this.#replace(current, `the connection stopped answering while a new one did (GET ${path})`, next);
    return true;
  }

  url(path: string, query?: Record<string, QueryValue>): URL {
    const url = new URL(path, this.target.server);
    // Keep a base path of the server URL (e.g. a proxy prefix).
    if (this.target.server.pathname !== '/')
      url.pathname = this.target.server.pathname.replace(/\/$/, '') + path;
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** Headers of a request (auth, impersonation) as a plain object, for WebSocket upgrades. */
  async upgradeHeaders(as?: Impersonation): Promise<Record<string, string | string[]>> {
    // An upgrade opens a session in the cluster (exec, attach, port-forward): never while only reading.
    refuseWritesWhileReading('UPGRADE', 'a WebSocket session');
    const headers: Record<string, string | string[]> = {
      'user-agent': 'binnacle-agent',
      ...(await this.target.authHeaders()),
    };
    if (as) {
      headers['Impersonate-User'] = headerValue(as.user);
      // An array becomes one header line per group (Node's http), as Kubernetes requires.
      headers['Impersonate-Group'] = as.groups.map(headerValue);
    }
    return headers;
  }

  async #headers(req: KubeRequest): Promise<string[]> {
    const flat: string[] = ['user-agent', 'binnacle-agent'];
    for (const [name, value] of Object.entries(await this.target.authHeaders())) flat.push(name, value);
    flat.push('accept', req.accept ?? 'application/json');
    if (req.body !== undefined) flat.push('content-type', req.contentType ?? 'application/json');
    if (req.as) {
      flat.push('Impersonate-User', headerValue(req.as.user));
      for (const group of req.as.groups) flat.push('Impersonate-Group', headerValue(group));
    }
    return flat;
  }

  async #send(req: KubeRequest): Promise<Dispatcher.ResponseData> {
    refuseWritesWhileReading(req.method ?? 'GET', req.path, req);
    const body =
      req.body === undefined
        ? undefined
        : typeof req.body === 'string' || Buffer.isBuffer(req.body)
          ? req.body
          : JSON.stringify(req.body);
    const pool = this.#pool;
    try {
      return await request(this.url(req.path, req.query), {
        method: req.method ?? 'GET',
        headers: await this.#headers(req),
        body,
        dispatcher: req.as ? pool.impersonating : pool.direct,
        signal: req.signal,
        headersTimeout: req.timeoutMs ?? defaultTimeoutMs,
        bodyTimeout: 0,
      });
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason ?? error;
      if (brokenConnection(error)) {
        const code = (error as { code?: string }).code ?? 'connection error';
        this.#replace(pool, `${req.method ?? 'GET'} ${req.path} failed with ${code}`);
      }
      throw fromNetworkError(error, this.target.server);
    }
  }

  static async #errorFrom(res: Dispatcher.ResponseData): Promise<AppError> {
    let text = '';
    for await (const chunk of res.body) {
      text += chunk.toString();
      if (text.length > maxErrorBodyBytes) break;
    }
    res.body.destroy();
    return fromKubeResponse(res.statusCode, text, res.headers);
  }

  /** A request whose answer is JSON; non-2xx answers throw. */
  async request<T>(req: KubeRequest): Promise<T> {
    const res = await this.#send(req);
    if (res.statusCode >= 300) throw await KubeClient.#errorFrom(res);
    const text = await bodyText(res.body);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A streaming request (watch, logs); non-2xx answers throw before the body is handed over. */
  async stream(req: KubeRequest): Promise<KubeStream> {
    const res = await this.#send(req);
    if (res.statusCode >= 300) throw await KubeClient.#errorFrom(res);
    return { status: res.statusCode, headers: res.headers, body: res.body };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await KubeClient.#destroy(this.#pool);
  }
}

/**
 * An answer's text, decoded as its chunks arrive. undici's `text()` joins them into one Buffer the size of the
 * answer first: a metrics list of 10 000 pods every 30 s was a malloc'ed block of megabytes, above glibc's mmap
 * threshold, which glibc then raised, and its heap grew by ~25 MB in steps while the agent sat idle (ADR 0105).
 */
async function bodyText(body: AsyncIterable<Buffer>): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const chunk of body) text += decoder.write(chunk);
  return text + decoder.end();
}
