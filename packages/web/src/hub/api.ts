import type { paths as agentPaths } from '../api/generated/agent-api.ts';
import type { paths } from '../api/generated/hub-api.ts';
import type { AnswerOf, GetPaths, Query } from '../api/typed-client.ts';
import { typedClient } from '../api/typed-client.ts';

/** The URL of a hub route: the hub's pages live at its root, so its routes are absolute paths. */
export function hubUrl(path: string, query: Query = {}): string {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return url.toString();
}

/** The 200 answer of a hub GET route. */
export type HubAnswer<P extends GetPaths<paths>> = AnswerOf<paths, P>;

/** The hub's routes, typed by its OpenAPI document. */
export const hub = typedClient<paths>(hubUrl);

/** A cluster's agent routes through the hub's tunnel (`/c/<cluster_id>/api/…`), as the signed-in person. */
export const agentOf = (clusterId: string) =>
  typedClient<agentPaths>((path, query) => hubUrl(`/c/${encodeURIComponent(clusterId)}${path}`, query));
