import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@binnacle/testkit';
import { dialHub, identityHeader, identityKey, verifyIdentity } from '@binnacle/tunnel';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Credential, TestHub } from '../../testing/index.ts';
import { oidcHubPerTest, startTestHub } from '../../testing/index.ts';

/**
 * The access cache (ADR 0043) on tunneled requests: a steady stream by one caller reads nothing from the
 * database, and every change to access takes effect on the very next request — on this hub at once, on
 * another replica as soon as the change is announced to it.
 */
const boundMs = 10_000;

/** The agent's own listener: answers `/api/whoami` with the identity the hub forwarded, verified as the agent does. */
function standInAgent() {
  const tokens = new Map<string, string>();
  // The hub signs with its (manual) clock: expiry is checked on the same time line.
  const clock = { now: () => Date.now() };
  const server = http.createServer((request, response) => {
    const header = String(request.headers[identityHeader] ?? '');
    const clusterId = header
      ? JSON.parse(Buffer.from(header.split('.')[0] ?? '', 'base64url').toString()).aud
      : '';
    const token = tokens.get(clusterId);
    const identity = token && verifyIdentity(identityKey(token), header, clusterId, clock.now());
    response
      .writeHead(identity ? 200 : 401, { 'content-type': 'application/json' })
      .end(JSON.stringify(identity ?? { error: 'bad identity' }));
  });
  return { server, tokens, clock };
}

const agent = standInAgent();

/** Dials `t` as the cluster's agent and waits until the hub holds the tunnel. */
async function connect(t: TestHub, hubUrl: string, clusterId: string, token: string) {
  agent.tokens.set(clusterId, token);
  const dialer = dialHub({
    hubUrl,
    clusterToken: token,
    agentVersion: 'cache-test',
    target: { server: agent.server },
  });
  await waitUntil('the agent to connect', () => Promise.resolve(Boolean(t.hub.ctx.tunnels.get(clusterId))), {
    timeoutMs: boundMs,
    intervalMs: 20,
  });
  return dialer;
}

async function listening(t: TestHub) {
  await t.hub.listen();
  return `http://127.0.0.1:${(t.hub.app.server.address() as AddressInfo).port}`;
}

/** A tunneled request; the forwarded identity's groups when it went through. */
async function whoami(t: TestHub, clusterId: string, as: Credential) {
  const answer = await t.request('GET', `/c/${clusterId}/api/whoami`, { as });
  return {
    status: answer.status,
    code: answer.json().code,
    groups: answer.json<{ groups?: string[] }>().groups,
  };
}

/** How many queries `body` sends to the hub's database. */
async function queriesDuring(t: TestHub, body: () => Promise<void>): Promise<number> {
  const executor = t.hub.ctx.database.db.getExecutor();
  const spy = vi.spyOn(executor, 'executeQuery');
  try {
    await body();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  agent.server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => agent.server.once('listening', resolve));
});
afterAll(async () => {
  agent.server.closeAllConnections();
  await new Promise<void>((resolve) => agent.server.close(() => resolve()));
});

describe('tunneled requests with the access cache', () => {
  let t: TestHub;
  let owner: { cookie: string; orgId: string };
  let clusterId: string;
  let clusterToken: string;
  let dialer: { close(): Promise<void> };

  beforeAll(async () => {
    t = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
    agent.clock.now = () => t.clock.now().getTime();
    const hubUrl = await listening(t);
    owner = await t.signInBreakGlass();
    const created = await t.request('POST', '/api/clusters', { as: owner, body: { name: 'cached' } });
    ({ id: clusterId, token: clusterToken } = created.json<{ id: string; token: string }>());
    dialer = await connect(t, hubUrl, clusterId, clusterToken);
  });
  afterAll(async () => {
    agent.clock.now = () => Date.now();
    await dialer?.close();
    await t?.close();
  });

  /** A membership written straight to the directory: the user's session stays in their own organization. */
  const memberOfOwnersOrg = (userId: string, role: 'member' | 'viewer') =>
    t.hub.ctx.database.db
      .insertInto('memberships')
      .values({ org_id: owner.orgId, user_id: userId, role, created_at: t.clock.now().toISOString() })
      .execute();
  let serial = 0;
  const member = async (role: 'member' | 'viewer' = 'member') => {
    const user = await t.addUser(`user${++serial}@example.com`, role, owner.orgId);
    const minted = await t.request('POST', '/api/pats', {
      as: { cookie: user.cookie },
      body: { name: 'cache' },
    });
    return { ...user, pat: minted.json<{ id: string; token: string }>() };
  };

  it('a steady stream by the same caller (cookie, PAT, another organization) reads nothing from the database', async () => {
    const user = await member();
    // Acting in an organization of their own, reaching the cluster of one they are a viewer in.
    const elsewhere = await t.addUser('roamer@example.com', 'owner', await t.createOrg('elsewhere'));
    await memberOfOwnersOrg(elsewhere.userId, 'viewer');
    for (const as of [{ cookie: user.cookie }, { pat: user.pat.token }, { cookie: elsewhere.cookie }]) {
      expect((await whoami(t, clusterId, as)).status).toBe(200);
      const queries = await queriesDuring(t, async () => {
        for (let i = 0; i < 20; i++) expect((await whoami(t, clusterId, as)).status).toBe(200);
      });
      expect(queries, JSON.stringify(as)).toBe(0);
    }
    expect((await whoami(t, clusterId, { cookie: elsewhere.cookie })).groups).toEqual([
      'binnacle:role:viewer',
    ]);
  });

  it('still records session activity and PAT use at their 10-minute granularity', async () => {
    const user = await member();
    await whoami(t, clusterId, { cookie: user.cookie });
    await whoami(t, clusterId, { pat: user.pat.token });
    const now = () => t.clock.now().toISOString();
    const { db } = t.hub.ctx.database;
    const lastSeen = () =>
      db
        .selectFrom('sessions')
        .select('last_seen_at')
        .where('user_id', '=', user.userId)
        .executeTakeFirstOrThrow();
    const lastUsed = () =>
      db.selectFrom('pats').select('last_used_at').where('id', '=', user.pat.id).executeTakeFirstOrThrow();
    t.clock.advance(9 * 60_000);
    const before = { seen: (await lastSeen()).last_seen_at, used: (await lastUsed()).last_used_at };
    await whoami(t, clusterId, { cookie: user.cookie });
    await whoami(t, clusterId, { pat: user.pat.token });
    expect({ seen: (await lastSeen()).last_seen_at, used: (await lastUsed()).last_used_at }).toEqual(before);
    t.clock.advance(60_000);
    await whoami(t, clusterId, { cookie: user.cookie });
    await whoami(t, clusterId, { pat: user.pat.token });
    expect({ seen: (await lastSeen()).last_seen_at, used: (await lastUsed()).last_used_at }).toEqual({
      seen: now(),
      used: now(),
    });
  });

  it('sign-out ends the cached session on the next request', async () => {
    const user = await member();
    expect((await whoami(t, clusterId, { cookie: user.cookie })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/signout', { as: { cookie: user.cookie } })).status).toBe(200);
    expect((await whoami(t, clusterId, { cookie: user.cookie })).status).toBe(401);
  });

  it("removal ends the member's cached session and PAT on the next request", async () => {
    const user = await member();
    expect((await whoami(t, clusterId, { cookie: user.cookie })).status).toBe(200);
    expect((await whoami(t, clusterId, { pat: user.pat.token })).status).toBe(200);
    const removed = await t.request('DELETE', `/api/orgs/${owner.orgId}/members/${user.userId}`, {
      as: owner,
    });
    expect(removed.status).toBe(204);
    expect((await whoami(t, clusterId, { cookie: user.cookie })).status).toBe(401);
    expect((await whoami(t, clusterId, { pat: user.pat.token })).status).toBe(401);
  });

  it('a role change is the identity the cluster sees on the next request (session and PAT)', async () => {
    const user = await member();
    expect((await whoami(t, clusterId, { cookie: user.cookie })).groups).toEqual(['binnacle:role:member']);
    expect((await whoami(t, clusterId, { pat: user.pat.token })).groups).toEqual(['binnacle:role:member']);
    const changed = await t.request('PATCH', `/api/orgs/${owner.orgId}/members/${user.userId}`, {
      as: owner,
      body: { role: 'viewer' },
    });
    expect(changed.status).toBe(204);
    expect((await whoami(t, clusterId, { cookie: user.cookie })).groups).toEqual(['binnacle:role:viewer']);
    expect((await whoami(t, clusterId, { pat: user.pat.token })).groups).toEqual(['binnacle:role:viewer']);
  });

  it('a revoked PAT is refused on the next request', async () => {
    const user = await member();
    expect((await whoami(t, clusterId, { pat: user.pat.token })).status).toBe(200);
    const revoked = await t.request('DELETE', `/api/pats/${user.pat.id}`, { as: { cookie: user.cookie } });
    expect(revoked.status).toBe(204);
    expect((await whoami(t, clusterId, { pat: user.pat.token })).status).toBe(401);
  });

  it('expiry is judged per request against the cached row, never cached as a verdict', async () => {
    const user = await member();
    const minted = await t.request('POST', '/api/pats', {
      as: { cookie: user.cookie },
      body: { name: 'short', expiresIn: '5s' },
    });
    const pat = minted.json<{ token: string }>().token;
    expect((await whoami(t, clusterId, { pat })).status).toBe(200);
    t.clock.advance(4_999);
    expect((await whoami(t, clusterId, { pat })).status).toBe(200);
    t.clock.advance(1);
    const expired = await t.request('GET', `/c/${clusterId}/api/whoami`, { as: { pat } });
    expect(expired.status).toBe(401);
    expect(expired.json<{ error: string }>().error).toMatch(/expired/);
  });

  it('a rotated token signs the next identity with the new key; deletion answers 404 at once', async () => {
    const user = await member();
    const other = await t.request('POST', '/api/clusters', { as: owner, body: { name: 'rotated' } });
    const { id, token } = other.json<{ id: string; token: string }>();
    const hubUrl = `http://127.0.0.1:${(t.hub.app.server.address() as AddressInfo).port}`;
    const first = await connect(t, hubUrl, id, token);
    try {
      expect((await whoami(t, id, { cookie: user.cookie })).status).toBe(200);
      const rotated = await t.request('POST', `/api/clusters/${id}/rotate-token`, { as: owner });
      expect((await whoami(t, id, { cookie: user.cookie })).code).toBe('cluster_offline');
      await first.close();
      const second = await connect(t, hubUrl, id, rotated.json<{ token: string }>().token);
      try {
        expect((await whoami(t, id, { cookie: user.cookie })).status).toBe(200);
        expect((await t.request('DELETE', `/api/clusters/${id}`, { as: owner })).status).toBe(204);
        expect((await whoami(t, id, { cookie: user.cookie })).status).toBe(404);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });

  it("losing the membership in another organization closes that organization's clusters on the next request", async () => {
    const roamer = await t.addUser('wanderer@example.com', 'owner', await t.createOrg('home'));
    await memberOfOwnersOrg(roamer.userId, 'member');
    expect((await whoami(t, clusterId, { cookie: roamer.cookie })).status).toBe(200);
    const removed = await t.request('DELETE', `/api/orgs/${owner.orgId}/members/${roamer.userId}`, {
      as: owner,
    });
    expect(removed.status).toBe(204);
    expect((await whoami(t, clusterId, { cookie: roamer.cookie })).status).toBe(404);
  });
});

describe('the access cache across replicas', () => {
  const hubs: TestHub[] = [];
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close();
  });

  it('a sign-out on one replica ends the session on another once announced, not only at the TTL', async () => {
    const a = await startTestHub();
    hubs.push(a);
    const b = await startTestHub({ database: a.database, clock: a.clock });
    hubs.push(b);
    const { cookie } = await a.signInBreakGlass();
    const account = (t: TestHub) => t.request('GET', '/api/account', { as: { cookie } });
    expect((await account(b)).status).toBe(200);
    expect((await a.request('POST', '/api/auth/signout', { as: { cookie } })).status).toBe(200);
    // Nothing told b: it answers from its cached row until the TTL bounds it.
    expect((await account(b)).status).toBe(200);
    a.clock.advance(10_000);
    expect((await account(b)).status).toBe(401);

    const again = await a.signInBreakGlass();
    a.hub.ctx.changes.publishTo(() => b.hub.ctx.changes.received());
    expect((await b.request('GET', '/api/account', { as: { cookie: again.cookie } })).status).toBe(200);
    expect((await a.request('POST', '/api/auth/signout', { as: { cookie: again.cookie } })).status).toBe(200);
    expect((await b.request('GET', '/api/account', { as: { cookie: again.cookie } })).status).toBe(401);
  });
});

describe('refreshed IdP groups', () => {
  const setup = oidcHubPerTest();

  it('the identity a cluster sees carries the refreshed groups from the request after the refresh on', async () => {
    const { idp, t } = await setup({ config: { port: 0, listenAddress: '127.0.0.1' } });
    const hubUrl = await listening(t);
    const owner = await t.signInBreakGlass();
    const created = await t.request('POST', '/api/clusters', { as: owner, body: { name: 'groups' } });
    const { id, token } = created.json<{ id: string; token: string }>();
    const dialer = await connect(t, hubUrl, id, token);
    try {
      idp.groups.set('alice', ['/ops']);
      const { cookie } = await t.signInOidc(idp, 'alice');
      expect((await whoami(t, id, { cookie })).groups).toContain('binnacle:idp:/ops');
      idp.groups.set('alice', ['/ops', '/sre']);
      idp.idTokenTtl = 3600;
      t.clock.advance(270_000); // into the ID token's last minute: the next request refreshes it
      expect((await whoami(t, id, { cookie })).groups).toContain('binnacle:idp:/sre');
      const found = await t.hub.ctx.sessions.lookup(cookie);
      // The cached row is the refreshed one: no second refresh is due.
      expect(found.state === 'active' && t.hub.ctx.refresher?.due(found.session)).toBe(false);
      expect((await whoami(t, id, { cookie })).groups).toContain('binnacle:idp:/sre');
    } finally {
      await dialer.close();
    }
  });
});
