import type { paths } from './generated/agent-api.ts';
import { type AnswerOf, type GetPaths, type Query, type SendAnswerOf, typedClient } from './typed-client.ts';

export { ApiError } from './errors.ts';

/**
 * Where the UI lives: `/` against an agent, `/c/<cluster_id>/` through the hub. The server writes it into
 * `<base href>`, so every API path is resolved against it and the same build works in both places.
 */
export const baseUrl = new URL('.', document.baseURI);
export const basePath = baseUrl.pathname.replace(/\/$/, '');

/** Through the hub, the cluster these pages are of (`/c/<cluster_id>/`); directly against an agent, none. */
const hubSegment = /^\/c\/([^/]+)$/.exec(basePath)?.[1];
export const hubClusterId = hubSegment === undefined ? undefined : decodeURIComponent(hubSegment);

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

/** The 200 answer of an agent GET route. */
export type Answer<P extends GetPaths<paths>> = AnswerOf<paths, P>;
/** The success answer of an agent POST route. */
export type PostAnswer<P extends keyof paths> = SendAnswerOf<paths, 'post', P>;

/** The agent's routes, at the page's base (`/`, or `/c/<cluster_id>/` through the hub). */
export const { get, post, put, remove } = typedClient<paths>(apiUrl);
