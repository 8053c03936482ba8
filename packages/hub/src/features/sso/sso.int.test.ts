import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcTestHub, startTestHub, type TestHub, testHubUrl } from '../../testing/index.ts';
import { discoveryFailed } from './service.ts';

let started: Awaited<ReturnType<typeof startOidcTestHub>>;
let owner: { cookie: string; orgId: string };
beforeAll(async () => {
  // The test IdP runs on loopback: the operator's allowance lets the hub fetch its discovery document.
  started = await startOidcTestHub({ config: { outboundAllowedNetworks: '127.0.0.1/32' } });
  owner = await started.t.signInBreakGlass();
});
afterAll(() => started.close());

const generate = (t: TestHub, orgId: string, cookie: string, issuer: string) =>
  t.request('POST', `/api/orgs/${orgId}/sso/setup`, {
    as: { cookie },
    body: { issuer, clientId: 'binnacle', clientSecret: 'x' },
  });

describe('Settings → SSO', () => {
  it('shows the settings in force, with the redirect URI and the cluster-access mode, to every role', async () => {
    const viewer = await started.t.addUser('viewer@example.com', 'viewer', owner.orgId);
    const answer = await started.t.request('GET', `/api/orgs/${owner.orgId}/sso`, {
      as: { cookie: viewer.cookie },
    });
    expect(answer.json()).toMatchObject({
      mayGenerate: false,
      oidcEnabled: true,
      issuer: started.idp.issuer,
      redirectUri: `${testHubUrl}/api/auth/oidc/callback`,
      groupsClaim: 'groups',
      groupForwarding: true,
      clusterAccess: 'idp',
      useRefreshToken: true,
    });
  });

  it('generates values and commands from issuer, client id and secret, checks discovery, and keeps the secret out of the values and logs', async () => {
    const secret = "s3cr3t-with-'quote";
    const answer = await started.t.request('POST', `/api/orgs/${owner.orgId}/sso/setup`, {
      as: { cookie: owner.cookie },
      body: { issuer: started.idp.issuer, clientId: 'binnacle', clientSecret: secret, scopes: ['groups'] },
    });
    expect(answer.status, answer.body).toBe(200);
    const setup = answer.json<{
      values: unknown;
      valuesYaml: string;
      commands: string[];
      discovery: { ok: boolean; endSessionEndpoint: boolean };
      redirectUri: string;
    }>();
    expect(setup.discovery).toEqual({ ok: true, endSessionEndpoint: true });
    expect(setup.values).toEqual({
      auth: {
        oidc: {
          issuer: started.idp.issuer,
          clientID: 'binnacle',
          clientSecretExistingSecret: 'binnacle-hub-oidc',
          groupsClaim: 'groups',
          scopes: ['groups'],
          useRefreshToken: true,
          clusterAccess: 'idp',
        },
      },
    });
    expect(JSON.stringify(setup.values) + setup.valuesYaml).not.toContain(secret);
    expect(setup.commands[0]).toBe(
      `kubectl create secret generic binnacle-hub-oidc --from-literal=client-secret='s3cr3t-with-'"'"'quote'`,
    );
    expect(started.t.logs.join('\n')).not.toContain(secret);
    const typo = await generate(started.t, owner.orgId, owner.cookie, `${started.idp.issuer}/typo`);
    expect(typo.json<{ discovery: unknown }>().discovery).toEqual(discoveryFailed);
  });
});

/**
 * Issue 37 #5: a viewer created an organisation (becoming its owner) and made the hub fetch
 * `http://127.0.0.1:9325/api/orgs#`, which reported `discovery answered 401` — a closed port `fetch failed`:
 * a port scanner with status codes.
 */
describe('SSO discovery never reaches internal addresses for a caller', () => {
  let t: TestHub;
  let admin: { cookie: string; orgId: string };
  let port: number;
  beforeAll(async () => {
    t = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
    await t.hub.listen();
    port = (t.hub.app.server.address() as AddressInfo).port;
    admin = await t.signInBreakGlass();
  });
  afterAll(() => t.close());

  it("is for the owners of the hub's first organization: an organization's self-made owner gets 403", async () => {
    const viewer = await t.addUser('viewer@example.com', 'viewer', admin.orgId);
    t.clock.advance(1_000); // organizations are ordered by when they were made
    const created = await t.request('POST', '/api/orgs', {
      as: { cookie: viewer.cookie },
      body: { name: 'mine' },
    });
    expect(created.status, created.body).toBe(201);
    const orgId = created.json<{ id: string }>().id;
    const answer = await generate(t, orgId, viewer.cookie, `http://127.0.0.1:${port}/api/orgs#`);
    expect(answer.status, answer.body).toBe(403);
    expect(answer.json()).toMatchObject({ code: 'forbidden', error: expect.stringContaining('whole hub') });
    // The page asks first, so it offers the form only to those it would answer.
    const settings = (orgOf: string, cookie: string) =>
      t.request('GET', `/api/orgs/${orgOf}/sso`, { as: { cookie } }).then((r) => r.json());
    expect(await settings(orgId, viewer.cookie)).toMatchObject({ mayGenerate: false });
    expect(await settings(admin.orgId, admin.cookie)).toMatchObject({ mayGenerate: true });
  });

  it('refuses loopback, private, link-local and mapped addresses with one answer that says nothing of them', async () => {
    const issuers = [
      `http://127.0.0.1:${port}/api/orgs#`, // answers 401
      'http://127.0.0.1:1/', // a closed port
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data#',
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/api/orgs#`,
      `http://localhost:${port}/api/orgs#`,
    ];
    for (const issuer of issuers) {
      const answer = await generate(t, admin.orgId, admin.cookie, issuer);
      expect(answer.status, answer.body).toBe(200);
      expect(answer.json<{ discovery: unknown }>().discovery, issuer).toEqual(discoveryFailed);
    }
    // Nothing reached the hub's own port: it logged no GET of a path those issuers name.
    const gets = t.logs
      .map((line) => JSON.parse(line) as { req?: { method?: string; url?: string } })
      .filter((entry) => entry.req?.method === 'GET')
      .map((entry) => entry.req?.url);
    expect(gets).not.toContain('/api/orgs');
    expect(gets).not.toContain('/.well-known/openid-configuration');
  });

  it('with the operator allowance, a failure still says nothing of the status or the network error', async () => {
    const allowing = await startTestHub({
      config: { port: 0, listenAddress: '127.0.0.1', outboundAllowedNetworks: '127.0.0.0/8,::1' },
    });
    try {
      const signedIn = await allowing.signInBreakGlass();
      for (const issuer of [`http://127.0.0.1:${port}/api/orgs#`, 'http://127.0.0.1:1/']) {
        const answer = await generate(allowing, signedIn.orgId, signedIn.cookie, issuer);
        expect(answer.json<{ discovery: unknown }>().discovery, issuer).toEqual(discoveryFailed);
      }
      // The hub's log, for its operator, says what happened.
      expect(allowing.logs.join('\n')).toMatch(/"reason":"answered 401"/);
    } finally {
      await allowing.close();
    }
  });
});
