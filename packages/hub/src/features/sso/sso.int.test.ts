import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcTestHub, testHubUrl } from '../../testing/index.ts';

let started: Awaited<ReturnType<typeof startOidcTestHub>>;
let owner: { cookie: string; orgId: string };
beforeAll(async () => {
  started = await startOidcTestHub();
  owner = await started.t.signInBreakGlass();
});
afterAll(() => started.close());

describe('Settings → SSO', () => {
  it('shows the settings in force, with the redirect URI and the cluster-access mode, to every role', async () => {
    const viewer = await started.t.addUser('viewer@example.com', 'viewer', owner.orgId);
    const answer = await started.t.request('GET', `/api/orgs/${owner.orgId}/sso`, {
      as: { cookie: viewer.cookie },
    });
    expect(answer.json()).toMatchObject({
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
    const typo = await started.t.request('POST', `/api/orgs/${owner.orgId}/sso/setup`, {
      as: { cookie: owner.cookie },
      body: { issuer: `${started.idp.issuer}/typo`, clientId: 'binnacle', clientSecret: 'x' },
    });
    expect(typo.json<{ discovery: { ok: boolean } }>().discovery.ok).toBe(false);
  });
});
