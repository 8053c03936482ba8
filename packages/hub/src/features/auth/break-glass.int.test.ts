import { afterEach, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub, testBreakGlass } from '../../testing/index.ts';

const hubs: TestHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});
async function hub(config = {}) {
  const started = await startTestHub({ config });
  hubs.push(started);
  return started;
}
const login = (t: TestHub, body: unknown, options: { origin?: string | null; cookie?: string } = {}) =>
  t.request('POST', '/api/auth/break-glass/login', {
    body,
    origin: options.origin ?? null,
    as: options.cookie ? { cookie: options.cookie } : undefined,
  });

describe('break-glass sign-in', () => {
  it('the first sign-in bootstraps an organization with the admin as owner, and later ones reuse it', async () => {
    const t = await hub();
    const first = await login(t, testBreakGlass);
    expect(first.status, first.body).toBe(200);
    const body = first.json<{ orgId: string; role: string; user: { email: string } }>();
    expect(body).toMatchObject({ role: 'owner', user: { email: testBreakGlass.email } });
    const again = await login(t, { email: 'Admin@Example.com', password: testBreakGlass.password });
    expect(again.json<{ orgId: string }>().orgId).toBe(body.orgId);
    expect(await t.hub.ctx.database.db.selectFrom('orgs').selectAll().execute()).toHaveLength(1);
  });

  it('joins the existing organization as owner when someone else bootstrapped the hub', async () => {
    const t = await hub();
    const orgId = await t.createOrg('acme');
    await t.addUser('first@acme.example', 'owner', orgId);
    const answer = await login(t, testBreakGlass);
    expect(answer.json()).toMatchObject({ orgId, role: 'owner' });
  });

  it('answers a wrong e-mail and a wrong password alike, and throttles after 5 failures per IP and e-mail', async () => {
    const t = await hub();
    const admin = await t.signInBreakGlass();
    const wrongEmail = await login(t, { email: 'nobody@example.com', password: testBreakGlass.password });
    expect(wrongEmail.status).toBe(401);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await login(t, { email: testBreakGlass.email, password: `guess ${attempt}` });
      expect(wrong.status).toBe(401);
      expect(wrong.json()).toEqual(wrongEmail.json());
    }
    const throttled = await login(t, testBreakGlass); // even the right password waits
    expect(throttled.status).toBe(429);
    expect(throttled.json().code).toBe('rate_limited');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(5 * 60_000);
    expect((await login(t, testBreakGlass)).status).toBe(200);
    const audit = await t.request('GET', `/api/orgs/${admin.orgId}/audit?action=auth.sign_in_failed`, {
      as: { cookie: admin.cookie },
    });
    expect(audit.json<{ items: unknown[] }>().items).toHaveLength(5);
  });

  it('issues a new session id at every sign-in and ends the one the browser offered (fixation)', async () => {
    const t = await hub();
    const before = await t.signInBreakGlass();
    const answer = await login(t, testBreakGlass, { cookie: before.cookie });
    const after = String(answer.headers['set-cookie']).split(';')[0]?.split('=')[1];
    expect(after).toBeDefined();
    expect(after).not.toBe(before.cookie);
    expect((await t.request('GET', '/api/account', { as: { cookie: before.cookie } })).json()).toEqual({
      code: 'session_ended',
      error: 'the session ended (a new sign-in in this browser replaced it); sign in again',
    });
    expect((await t.request('GET', '/api/account', { as: { cookie: after as string } })).status).toBe(200);
    // A made-up id never becomes a session.
    expect((await t.request('GET', '/api/account', { as: { cookie: 'attacker-chosen-value' } })).status).toBe(
      401,
    );
  });

  it('refuses a sign-in posted from a foreign page (login CSRF)', async () => {
    const t = await hub();
    const answer = await login(t, testBreakGlass, { origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.json().code).toBe('origin_rejected');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('is refused cleanly when no break-glass admin is configured', async () => {
    const t = await hub({ breakGlassEmail: undefined, breakGlassPassword: undefined });
    const answer = await login(t, testBreakGlass);
    expect(answer.status).toBe(401);
    expect(answer.json()).toEqual({
      error: 'break-glass sign-in is not configured on this hub',
      code: 'invalid_credentials',
    });
  });

  it('keeps the break-glass admin an owner: it cannot be demoted or removed', async () => {
    const t = await hub();
    const admin = await t.signInBreakGlass();
    const other = await t.addUser('second@example.com', 'owner', admin.orgId);
    for (const [method, body] of [
      ['PATCH', { role: 'viewer' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await t.request(method, `/api/orgs/${admin.orgId}/members/${admin.userId}`, {
        as: { cookie: other.cookie },
        body,
      });
      expect(answer.status, answer.body).toBe(409);
    }
  });

  it('validates the body: missing or unknown fields are 400 naming them', async () => {
    const t = await hub();
    const missing = await login(t, { email: testBreakGlass.email });
    expect(missing.status).toBe(400);
    expect(missing.json().error).toMatch(/password/);
    const extra = await login(t, { ...testBreakGlass, remember: true });
    expect(extra.status).toBe(400);
    expect(extra.json().error).toMatch(/remember/);
  });
});

/**
 * Issue 37 #4: behind the TLS proxy every client was 127.0.0.1, so five wrong passwords from anyone held the
 * real admin back for 300 s, and the audit log named no one. The proxy here is the test's own requests,
 * which arrive from 127.0.0.1 with the X-Forwarded-For a proxy writes.
 */
describe('break-glass sign-in behind a proxy', () => {
  const wrong = { email: testBreakGlass.email, password: 'a wrong guess' };
  const from = (
    t: TestHub,
    body: unknown,
    client: { forwardedFor?: string; peer?: string; device?: string } = {},
  ) =>
    t.request('POST', '/api/auth/break-glass/login', {
      body,
      origin: null,
      remoteAddress: client.peer,
      headers: {
        ...(client.forwardedFor ? { 'x-forwarded-for': client.forwardedFor } : {}),
        ...(client.device ? { cookie: `__Secure-binnacle_device=${client.device}` } : {}),
      },
    });
  const deviceOf = (answer: { headers: Record<string, unknown> }) =>
    [answer.headers['set-cookie'] ?? []]
      .flat()
      .map(String)
      .find((c) => c.startsWith('__Secure-binnacle_device='))
      ?.split(';')[0]
      ?.split('=')[1] as string;
  async function auditAddresses(t: TestHub, cookie: string, orgId: string, action: string) {
    const audit = await t.request('GET', `/api/orgs/${orgId}/audit?action=${action}`, { as: { cookie } });
    return audit.json<{ items: { ip: string }[] }>().items.map((item) => item.ip);
  }

  it('five bad passwords from one client leave the owner, at another address, able to sign in; the audit log names both', async () => {
    const t = await hub({ trustedProxies: '127.0.0.1' });
    await t.signInBreakGlass(); // the admin exists, so failures on its e-mail are audited
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await from(t, wrong, { forwardedFor: '203.0.113.7' })).status).toBe(401);
    const attacker = await from(t, testBreakGlass, { forwardedFor: '203.0.113.7' });
    expect([attacker.status, attacker.json().code]).toEqual([429, 'rate_limited']);
    const owner = await from(t, testBreakGlass, { forwardedFor: '198.51.100.2' });
    expect(owner.status, owner.body).toBe(200);
    const { orgId } = owner.json<{ orgId: string }>();
    const cookie = String(owner.headers['set-cookie']).match(
      /__Host-binnacle_session=([^;]+)/,
    )?.[1] as string;
    expect(await auditAddresses(t, cookie, orgId, 'auth.sign_in_failed')).toEqual(
      Array(5).fill('203.0.113.7'),
    );
    expect(await auditAddresses(t, cookie, orgId, 'auth.sign_in')).toEqual(['198.51.100.2', '127.0.0.1']);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: it is counted and audited as itself', async () => {
    for (const config of [{}, { trustedProxies: '10.0.0.0/8' }]) {
      const t = await hub(config);
      const admin = await t.signInBreakGlass();
      for (let attempt = 0; attempt < 5; attempt++) {
        const answer = await from(t, wrong, { peer: '198.51.100.9', forwardedFor: `203.0.113.${attempt}` });
        expect(answer.status).toBe(401);
      }
      const spoofed = await from(t, testBreakGlass, { peer: '198.51.100.9', forwardedFor: '192.0.2.44' });
      expect(spoofed.status).toBe(429);
      expect(await auditAddresses(t, admin.cookie, admin.orgId, 'auth.sign_in_failed')).toEqual(
        Array(5).fill('198.51.100.9'),
      );
    }
  });

  it('delays the account more at each failure from anywhere, but never a browser the owner signed in with', async () => {
    const t = await hub({ trustedProxies: '127.0.0.1' });
    const device = deviceOf(await from(t, testBreakGlass, { forwardedFor: '198.51.100.2' }));
    expect(device).toBeTruthy();
    // A guesser with many addresses: each stays under its own limit, the account's failures add up.
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await from(t, wrong, { forwardedFor: `203.0.113.${attempt}` })).status).toBe(401);
    const retryAfter: string[] = [];
    for (let round = 0; round < 4; round++) {
      const held = await from(t, testBreakGlass, { forwardedFor: `192.0.2.${round}` });
      expect(held.status).toBe(429);
      retryAfter.push(String(held.headers['retry-after']));
      t.clock.advance(Number(held.headers['retry-after']) * 1000);
      expect((await from(t, wrong, { forwardedFor: `192.0.2.${round}` })).status).toBe(401);
    }
    expect(retryAfter).toEqual(['1', '2', '4', '8']);
    // The owner's browser is a known device: neither the account's delay nor a busy address holds it back.
    expect((await from(t, testBreakGlass, { forwardedFor: '198.51.100.2', device })).status).toBe(200);
    expect((await from(t, testBreakGlass, { forwardedFor: '203.0.113.1', device })).status).toBe(200);
    // A new browser of the owner waits like anyone else.
    expect((await from(t, testBreakGlass, { forwardedFor: '198.51.100.2' })).status).toBe(429);
  });
});
