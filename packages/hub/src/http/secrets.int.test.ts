import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../security/tokens.ts';
import { addedUsersIdp, startTestHub, type TestHub, testBreakGlass } from '../testing/index.ts';

const tables = [
  'orgs',
  'users',
  'memberships',
  'sessions',
  'pats',
  'clusters',
  'invitations',
  'audit_events',
  'preferences',
] as const;

let t: TestHub;
const secrets = {} as Record<
  'password' | 'wrongPassword' | 'cookie' | 'pat' | 'clusterToken' | 'rotatedClusterToken' | 'invitation',
  string
>;

beforeAll(async () => {
  t = await startTestHub({ config: addedUsersIdp });
  // A refused attempt first: a wrong password must not reach the log either.
  const wrong = 'not-the-password-1234';
  await t.request('POST', '/api/auth/break-glass/login', {
    body: { email: testBreakGlass.email, password: wrong },
  });
  secrets.wrongPassword = wrong;
  secrets.password = testBreakGlass.password;
  const admin = await t.signInBreakGlass();
  secrets.cookie = admin.cookie;
  const as = { cookie: admin.cookie };
  secrets.pat = (await t.request('POST', '/api/pats', { as, body: { name: 'ci' } })).json<{
    token: string;
  }>().token;
  const cluster = (await t.request('POST', '/api/clusters', { as, body: { name: 'prod' } })).json<{
    id: string;
    token: string;
  }>();
  secrets.clusterToken = cluster.token;
  secrets.rotatedClusterToken = (
    await t.request('POST', `/api/clusters/${cluster.id}/rotate-token`, { as: { pat: secrets.pat } })
  ).json<{ token: string }>().token;
  secrets.invitation = (
    await t.request('POST', `/api/orgs/${admin.orgId}/invitations`, {
      as,
      body: { email: 'new@example.com', role: 'member' },
    })
  ).json<{ token: string }>().token;
  await t.request('GET', '/api/account', { as: { pat: secrets.pat } });
  await t.request('POST', '/api/auth/signout', { as });
});
afterAll(() => t.close());

describe('secrets never reach logs or the database in clear', () => {
  it('every secret was really minted and used', () => {
    expect(secrets.pat).toMatch(/^bnp_/);
    expect(secrets.clusterToken).toMatch(/^bnc_/);
    expect(secrets.rotatedClusterToken).toMatch(/^bnc_/);
    expect(secrets.invitation).toMatch(/^bni_/);
    expect(secrets.cookie.length).toBe(43);
    expect(t.logs.length).toBeGreaterThan(10); // request logging was on
  });

  it('no captured log line contains a password, cookie or token', () => {
    const logs = t.logs.join('\n');
    for (const [name, value] of Object.entries(secrets))
      expect(logs.includes(value), `${name} in the log`).toBe(false);
  });

  it('no database row holds a secret in clear; tokens and session ids are kept as SHA-256 only', async () => {
    const dump: string[] = [];
    for (const table of tables)
      dump.push(JSON.stringify(await t.hub.ctx.database.db.selectFrom(table).selectAll().execute()));
    const everything = dump.join('\n');
    for (const [name, value] of Object.entries(secrets))
      expect(everything.includes(value), `${name} in the database`).toBe(false);
    expect(everything).toContain(hashSecret(secrets.pat));
    expect(everything).toContain(hashSecret(secrets.rotatedClusterToken));
    expect(everything).toContain(hashSecret(secrets.invitation));
  });
});
