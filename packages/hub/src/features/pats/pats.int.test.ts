import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../security/tokens.ts';
import { startTestHub, type TestHub } from '../../testing/index.ts';

let t: TestHub;
let admin: { cookie: string; orgId: string; userId: string };
beforeAll(async () => {
  t = await startTestHub();
  admin = await t.signInBreakGlass();
});
afterAll(() => t.close());

const mint = async (body: Record<string, unknown>, cookie = admin.cookie) =>
  t.request('POST', '/api/pats', { as: { cookie }, body });

describe('personal access tokens', () => {
  it('are shown once at minting, then listed by name and hint only', async () => {
    const minted = await mint({ name: 'deploy bot', expiresIn: '720h' });
    expect(minted.status, minted.body).toBe(201);
    const pat = minted.json<{ id: string; token: string; hint: string; expiresAt: string }>();
    expect(pat.token).toMatch(/^bnp_[0-9A-Za-z]{49}$/);
    expect(pat.hint).toBe(pat.token.slice(-4));
    expect(Date.parse(pat.expiresAt) - t.clock.now().getTime()).toBe(720 * 3_600_000);
    const listed = (await t.request('GET', '/api/pats', { as: { cookie: admin.cookie } })).body;
    expect(listed).toContain('deploy bot');
    expect(listed).not.toContain(pat.token);
  });

  it('authenticate hub routes as their owner, pinned to their organization, with the current role', async () => {
    const user = await t.addUser('dev@example.com', 'member', admin.orgId);
    const { token } = (await mint({ name: 'dev' }, user.cookie)).json<{ token: string }>();
    const account = await t.request('GET', '/api/account', { as: { pat: token } });
    expect(account.json()).toMatchObject({
      user: { email: 'dev@example.com' },
      currentOrg: { id: admin.orgId, role: 'member' },
      credential: { via: 'pat' },
    });
    await t.request('PATCH', `/api/orgs/${admin.orgId}/members/${user.userId}`, {
      as: { cookie: admin.cookie },
      body: { role: 'viewer' },
    });
    expect((await t.request('GET', '/api/account', { as: { pat: token } })).json()).toMatchObject({
      currentOrg: { role: 'viewer' },
    });
  });

  it('cannot mint PATs: only a cookie-signed-in user mints, and only for themselves', async () => {
    const { token } = (await mint({ name: 'ci' })).json<{ token: string }>();
    const answer = await t.request('POST', '/api/pats', { as: { pat: token }, body: { name: 'child' } });
    expect(answer.status).toBe(403);
    expect(answer.json().error).toMatch(/browser session/);
    const extra = await mint({ name: 'for someone else', userId: 'another' });
    expect(extra.status).toBe(400);
  });

  it('refuses malformed, foreign, expired and revoked tokens with 401; a token in the query string is ignored', async () => {
    const good = (await mint({ name: 'short-lived', expiresIn: '1h' })).json<{ id: string; token: string }>();
    const body = good.token.slice(4, 47);
    const refused = [
      `bnp_${body}AAAAAA`, // checksum does not match
      good.token.replace('bnp_', 'bnc_'),
      good.token.slice(0, -1),
      mintToken('bnp').token, // well formed, never issued
      'ghp_abc',
    ];
    for (const token of refused) {
      const answer = await t.request('GET', '/api/account', { as: { pat: token } });
      expect(answer.status, token).toBe(401);
      expect(answer.json().code).toBe('unauthenticated');
    }
    expect((await t.request('GET', `/api/account?access_token=${good.token}`)).status).toBe(401);
    expect(
      (await t.request('GET', '/api/account', { headers: { authorization: `Basic ${good.token}` } })).status,
    ).toBe(401);
    expect((await t.request('GET', '/api/account', { as: { pat: good.token } })).status).toBe(200);
    t.clock.advance(3_600_000);
    expect((await t.request('GET', '/api/account', { as: { pat: good.token } })).json().error).toMatch(
      /expired/,
    );
    const other = (await mint({ name: 'to revoke' })).json<{ id: string; token: string }>();
    expect((await t.request('DELETE', `/api/pats/${other.id}`, { as: { pat: other.token } })).status).toBe(
      204,
    );
    expect((await t.request('GET', '/api/account', { as: { pat: other.token } })).status).toBe(401);
  });

  it('record their last use at most every 10 minutes', async () => {
    const pat = (await mint({ name: 'usage' })).json<{ id: string; token: string }>();
    const lastUsed = async () =>
      (
        await t.hub.ctx.database.db
          .selectFrom('pats')
          .select('last_used_at')
          .where('id', '=', pat.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    await t.request('GET', '/api/account', { as: { pat: pat.token } });
    const first = await lastUsed();
    expect(first).toBe(t.clock.now().toISOString());
    t.clock.advance(9 * 60_000);
    await t.request('GET', '/api/account', { as: { pat: pat.token } });
    expect(await lastUsed()).toBe(first);
    t.clock.advance(60_000);
    await t.request('GET', '/api/account', { as: { pat: pat.token } });
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });

  it('reject a bad lifetime naming expiresIn', async () => {
    for (const expiresIn of ['7d', '9000h', '0s']) {
      const answer = await mint({ name: 'x', expiresIn });
      expect(answer.status, expiresIn).toBe(400);
      expect(answer.json().error).toMatch(/expiresIn/);
    }
  });
});

describe('CSRF protection of cookie-authenticated writes', () => {
  it('refuses a foreign or missing Origin, accepts same-origin; bearer requests are exempt', async () => {
    const as = { cookie: admin.cookie };
    const foreign = await t.request('POST', '/api/clusters', {
      as,
      body: { name: 'csrf' },
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json().code).toBe('origin_rejected');
    const missing = await t.request('POST', '/api/clusters', { as, body: { name: 'csrf' }, origin: null });
    expect(missing.status).toBe(403);
    const signOut = await t.request('POST', '/api/auth/signout', { as, origin: 'https://evil.example' });
    expect(signOut.status).toBe(403);
    expect((await t.request('GET', '/api/clusters', { as })).json<{ items: unknown[] }>().items).toEqual([]);
    const fetchMetadata = await t.request('POST', '/api/clusters', {
      as,
      body: { name: 'csrf' },
      origin: null,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(fetchMetadata.status, fetchMetadata.body).toBe(201);
    const { token } = (await mint({ name: 'script' })).json<{ token: string }>();
    const bearer = await t.request('POST', '/api/clusters', {
      as: { pat: token },
      body: { name: 'from-script' },
      origin: 'https://elsewhere.example',
    });
    expect(bearer.status, bearer.body).toBe(201);
  });
});
