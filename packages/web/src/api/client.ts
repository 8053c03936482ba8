import type { paths } from './generated/agent-api.ts';

/** What every failed request answers: `{error, code}` (docs/api/errors.md). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
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
    throw new ApiError(res.status, error.code ?? 'http_error', error.error ?? `HTTP ${res.status}`);
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

type PostPaths = {
  [P in keyof paths]: paths[P] extends { post: { responses: { 200: unknown } } } ? P : never;
}[keyof paths];
/** The 200 answer of a POST route. */
export type PostAnswer<P extends PostPaths> = paths[P] extends { post: { responses: { 200: infer R } } }
  ? JsonOf<R>
  : never;

/** POST to a route (an action), with a JSON body when one is given: `post('/api/nodes/{name}/cordon', {params})`. */
export async function post<P extends PostPaths>(
  path: P,
  options: { params?: Record<string, string>; body?: unknown } = {},
): Promise<PostAnswer<P>> {
  const init: RequestInit = { method: 'POST', credentials: 'same-origin' };
  if (options.body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  return answer(await fetch(apiUrl(fill(path, options.params)), init));
}
