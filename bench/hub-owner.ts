import type { HubOwner } from '@binnacle/testkit';
import type { Pool } from 'undici';

export async function send(
  pool: Pool,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await pool.request({
    method,
    path,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** The clusters the hub itself lists as connected (its tunnel registry, through GET /api/clusters). */
export async function connectedClusters(pool: Pool, owner: HubOwner): Promise<Set<string>> {
  const listed = await send(pool, 'GET', '/api/clusters', { cookie: owner.cookie });
  if (listed.status !== 200) throw new Error(`GET /api/clusters answered ${listed.status}: ${listed.text}`);
  const { items } = JSON.parse(listed.text) as { items: { id: string; connected?: boolean }[] };
  return new Set(items.filter((c) => c.connected).map((c) => c.id));
}
