import type { paths } from './generated/agent-api.ts';

/** What every failed request answers: `{error, code}` (docs/api/errors.md). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The whole answer: some errors carry more than `{error, code}` (a drain's report beside drain_incomplete). */
  readonly body: Record<string, unknown>;

  constructor(status: number, code: string, message: string, body: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

type GetPaths = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: unknown } } } ? P : never;
}[keyof paths];
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
/** The 200 answer of a GET route, as the agent's OpenAPI document declares it. */
export type Answer<P extends GetPaths> = paths[P] extends { get: { responses: { 200: infer R } } }
  ? JsonOf<R>
  : never;

/**
 * Where the UI lives: `/` against an agent, `/c/<cluster_id>/` through the hub. The server writes it into
 * `<base href>`, so every API path is resolved against it and the same build works in both places.
 */
export const baseUrl = new URL('.', document.baseURI);
export const basePath = baseUrl.pathname.replace(/\/$/, '');

/** The URL of an agent route (`/api/...`), with query parameters that are set. */
export function apiUrl(path: string, query: Query = {}): string {
  const url = new URL(path.replace(/^\//, ''), baseUrl);
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return url.toString();
}

/** The WebSocket URL of an agent route (ws: or wss: after the page's own scheme). */
export function socketUrl(path: string, query: Query = {}): string {
  return apiUrl(path, query).replace(/^http/, 'ws');
}

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const error = (body ?? {}) as { error?: string; code?: string };
    throw new ApiError(
      res.status,
      error.code ?? 'http_error',
      error.error ?? `HTTP ${res.status}`,
      error as Record<string, unknown>,
    );
  }
  return body as T;
}

type Query = Record<string, string | number | undefined>;

/** Puts path parameters into a route's template: `/api/resources/{kind}` + `{kind: 'pods'}`. */
function fill(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** GET a route typed by the agent's document: `get('/api/resources/{kind}', {params: {kind}, query})`. */
export async function get<P extends GetPaths>(
  path: P,
  options: { params?: Record<string, string>; query?: Query; signal?: AbortSignal } = {},
): Promise<Answer<P>> {
  const url = apiUrl(fill(path, options.params), options.query);
  return answer(await fetch(url, { credentials: 'same-origin', signal: options.signal }));
}

type Method = 'post' | 'put' | 'delete';
/** Routes with a 200 or 201 answer for the method. */
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: { responses: { 200: unknown } | { 201: unknown } } }
    ? P
    : never;
}[keyof paths];
type Success<R> = R extends { 200: infer A } ? A : R extends { 201: infer C } ? C : never;
/** The success answer of a route for a method other than GET. */
export type SendAnswer<M extends Method, P extends PathsWith<M>> = paths[P] extends {
  [K in M]: { responses: infer R };
}
  ? JsonOf<Success<R>>
  : never;
export type PostAnswer<P extends PathsWith<'post'>> = SendAnswer<'post', P>;

interface SendOptions {
  params?: Record<string, string>;
  query?: Query;
  /** JSON-encoded, unless it is text (YAML), which is sent as `application/yaml`. */
  body?: unknown;
}

/** A request that changes something, typed by the agent's document for its method. */
async function send<M extends Method, P extends PathsWith<M>>(
  method: M,
  path: P,
  options: SendOptions,
): Promise<SendAnswer<M, P>> {
  const init: RequestInit = { method: method.toUpperCase(), credentials: 'same-origin' };
  if (typeof options.body === 'string') {
    init.headers = { 'content-type': 'application/yaml' };
    init.body = options.body;
  } else if (options.body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  return answer(await fetch(apiUrl(fill(path, options.params), options.query), init));
}

/** POST to a route (an action), with a JSON body when one is given: `post('/api/nodes/{name}/cordon', {params})`. */
export const post = <P extends PathsWith<'post'>>(path: P, options: SendOptions = {}) =>
  send('post', path, options);

/** PUT a YAML or JSON body: `put('/api/resources/{kind}/{namespace}/{name}', {params, query, body})`. */
export const put = <P extends PathsWith<'put'>>(path: P, options: SendOptions = {}) =>
  send('put', path, options);

/** DELETE: `remove('/api/resources/{kind}/{namespace}/{name}', {params})`. */
export const remove = <P extends PathsWith<'delete'>>(path: P, options: SendOptions = {}) =>
  send('delete', path, options);
