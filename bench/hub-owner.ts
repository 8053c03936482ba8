import type { Pool } from 'undici';
import { breakGlass } from './hub-process.ts';

/** The break-glass admin signed in over HTTP: the cookie, and the Origin the hub wants on writes. */
export interface Owner {
  cookie: string;
  origin: string;
}

export async function send(
  pool: Pool,
  method: 'GET' | 'POST',
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

export async function signInOwner(pool: Pool, publicUrl: string): Promise<Owner> {
  const origin = new URL(publicUrl).origin;
  const signIn = await send(pool, 'POST', '/api/auth/break-glass/login', { origin }, breakGlass);
  if (signIn.status !== 200) throw new Error(`break-glass sign-in answered ${signIn.status}: ${signIn.text}`);
  // `binnacle_session` on an http://localhost public URL, `__Host-binnacle_session` on https.
  const cookie = [signIn.headers['set-cookie'] ?? []]
    .flat()
    .map((c) => c.split(';')[0] as string)
    .find((c) => /^(__Host-)?binnacle_session=/.test(c));
  if (!cookie) throw new Error(`break-glass sign-in set no session cookie: ${signIn.text}`);
  return { cookie, origin };
}

/** Registers a cluster through the API, as an owner does, for its `bnc_` agent token. */
export async function createCluster(
  pool: Pool,
  owner: Owner,
  name: string,
): Promise<{ id: string; token: string }> {
  const created = await send(pool, 'POST', '/api/clusters', { ...owner }, { name });
  if (created.status !== 201)
    throw new Error(`creating cluster ${name} answered ${created.status}: ${created.text}`);
  const { id, token } = JSON.parse(created.text) as { id: string; token: string };
  if (!token.startsWith('bnc_')) throw new Error(`cluster ${name} came with an unexpected token shape`);
  return { id, token };
}

/** The clusters the hub itself lists as connected (its tunnel registry, through GET /api/clusters). */
export async function connectedClusters(pool: Pool, owner: Owner): Promise<Set<string>> {
  const listed = await send(pool, 'GET', '/api/clusters', { cookie: owner.cookie });
  if (listed.status !== 200) throw new Error(`GET /api/clusters answered ${listed.status}: ${listed.text}`);
  const { items } = JSON.parse(listed.text) as { items: { id: string; connected?: boolean }[] };
  return new Set(items.filter((c) => c.connected).map((c) => c.id));
}
