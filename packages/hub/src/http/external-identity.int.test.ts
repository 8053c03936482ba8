import type { TestIdp } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { oidcHubPerTest, testHubUrl } from '../testing/index.ts';

const setup = oidcHubPerTest();

const hostedIssuer = 'https://hosted.binnacle.test';
type Account = { credential: { via: string }; idpGroups: string[]; currentOrg: { role: string } };

describe('OAuth access tokens for AI agents', () => {
  it('authenticate with the IdP groups when issued for the hub; refused with a wrong audience, issuer, expiry or user', async () => {
    const { idp, t } = await setup();
    idp.groups.set('ada', ['/platform-admins']);
    await t.signInOidc(idp, 'ada');
    const token = (claims: Record<string, unknown>, options: { audience?: string; issuer?: string } = {}) =>
      idp.signJwt(
        { sub: 'ada', groups: ['/platform-admins', 'bad value'], ...claims },
        { audience: `${testHubUrl}/mcp`, ...options },
      );
    const ok = await t.request('GET', '/api/account', {
      headers: { authorization: `Bearer ${await token({})}` },
    });
    expect(ok.status, ok.body).toBe(200);
    expect(ok.json<Account>()).toMatchObject({
      credential: { via: 'oauth' },
      idpGroups: ['/platform-admins'],
    });
    const refused = [
      await token({}, { audience: 'https://other.example/mcp' }),
      await token({}, { issuer: 'https://other-idp.example' }),
      await token({ exp: Math.floor(Date.now() / 1000) - 60 }),
      await token({ sub: 'never-signed-in' }),
      `${(await token({})).slice(0, -4)}AAAA`,
    ];
    for (const bad of refused) {
      const answer = await t.request('GET', '/api/account', { headers: { authorization: `Bearer ${bad}` } });
      expect(answer.status).toBe(401);
      expect(answer.json().code).toBe('unauthenticated');
    }
    const mint = await t.request('POST', '/api/pats', {
      body: { name: 'x' },
      headers: { authorization: `Bearer ${await token({})}` },
    });
    expect(mint.status).toBe(403);
  });
});

describe('the hosted identity provider cookie', () => {
  // The IdP's own keys stand in for the hosted provider's (another issuer, the same JWKS endpoint).
  const hostedConfig = (idp: TestIdp) => ({
    hostedIdpJwksUrl: `${idp.issuer}/jwks`,
    hostedIdpIssuer: hostedIssuer,
    oidcClusterAccess: 'roles' as const,
  });

  it('signs the person in from a valid cookie, refuses forged or expired ones, and is CSRF-protected', async () => {
    const { idp, t } = await setup({ config: hostedConfig });
    const cookie = async (claims: Record<string, unknown>) =>
      `__session=${await idp.signJwt({ sub: 'user_1', email: 'hana@example.com', ...claims }, { issuer: hostedIssuer, audience: 'hosted' })}`;
    const first = await t.request('GET', '/api/account', { headers: { cookie: await cookie({}) } });
    expect(first.status, first.body).toBe(200);
    expect(first.json<Account>()).toMatchObject({
      credential: { via: 'hosted' },
      currentOrg: { role: 'owner' },
      idpGroups: [],
    });
    expect(
      (
        await t.request('GET', '/api/account', {
          headers: { cookie: await cookie({ exp: Math.floor(Date.now() / 1000) - 60 }) },
        })
      ).status,
    ).toBe(401);
    expect((await t.request('GET', '/api/account', { headers: { cookie: await cookie({}) } })).status).toBe(
      200,
    );
    const forged = `__session=${await idp.signJwt({ sub: 'user_1' }, { issuer: 'https://someone-else.example' })}`;
    expect((await t.request('GET', '/api/account', { headers: { cookie: forged } })).status).toBe(401);
    const write = await t.request('POST', '/api/clusters', {
      body: { name: 'x' },
      origin: null,
      headers: { cookie: await cookie({}) },
    });
    expect(write.status).toBe(403);
    expect(write.json().code).toBe('origin_rejected');
  });

  it('with OIDC also configured: OIDC-session groups are not forwarded, and one warning is logged at boot', async () => {
    const { idp, t } = await setup({ config: hostedConfig });
    expect(t.logs.filter((line) => line.includes('hosted-and-oidc'))).toHaveLength(1);
    idp.groups.set('ian', ['/platform-admins']);
    const { cookie } = await t.signInOidc(idp, 'ian');
    expect((await t.request('GET', '/api/account', { as: { cookie } })).json<Account>().idpGroups).toEqual(
      [],
    );
  });
});
