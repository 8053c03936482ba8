import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { signInAtIdp, startTestIdp, type TestIdp } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Role, roles } from '../security/roles.ts';
import { type Credential, startTestHub, type TestHub, testBreakGlass } from '../testing/index.ts';

interface Row {
  method: string;
  path: string;
  credentials: 'public' | 'session' | 'session or PAT';
  allowed: Record<Role, boolean>;
}

/** The role matrix as docs/api/roles.md states it. */
function documentedMatrix(): Row[] {
  const doc = readFileSync(resolve(import.meta.dirname, '../../../../docs/api/roles.md'), 'utf8');
  return doc
    .split('\n')
    .filter((line) => /^\| (GET|POST|PUT|PATCH|DELETE|OPTIONS) \|/.test(line))
    .map((line) => {
      const [method, path, credentials, owner, member, viewer] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return {
        method,
        path,
        credentials,
        allowed: { owner: owner === '✓', member: member === '✓', viewer: viewer === '✓' },
      } as Row;
    });
}

let t: TestHub;
let idp: TestIdp;
let owner: { cookie: string; orgId: string };
let otherOrgId: string;
let serial = 0;

beforeAll(async () => {
  idp = await startTestIdp({ hubUrl: 'https://hub.binnacle.test' });
  t = await startTestHub({
    config: { oidcIssuer: idp.issuer, oidcClientId: idp.clientId, oidcClientSecret: idp.clientSecret },
  });
  owner = await t.signInBreakGlass();
  // Organizations are ordered by when they were made: the first stays the hub's first (SSO setup is its owners').
  t.clock.advance(1_000);
  const created = await t.request('POST', '/api/orgs', {
    as: { cookie: owner.cookie },
    body: { name: 'second' },
  });
  otherOrgId = created.json<{ id: string }>().id;
  await t.request('PATCH', '/api/account', {
    as: { cookie: owner.cookie },
    body: { currentOrgId: owner.orgId },
  });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

/** A fresh user with the role, a session and a PAT (minted as member through the API, then given the role). */
async function principal(role: Role) {
  const email = `user${++serial}@example.com`;
  const user = await t.addUser(email, 'member', owner.orgId);
  const minted = await t.request('POST', '/api/pats', {
    as: { cookie: user.cookie },
    body: { name: 'matrix' },
  });
  expect(minted.status).toBe(201);
  const pat = minted.json<{ id: string; token: string }>();
  await t.hub.ctx.database.db
    .updateTable('memberships')
    .set({ role })
    .where('user_id', '=', user.userId)
    .execute();
  return { email, ...user, pat };
}

const asOwner = { cookie: '' } as { cookie: string };

/** A concrete request for a documented route: real ids of the caller's organization and a valid body. */
async function concrete(row: Row, caller: Awaited<ReturnType<typeof principal>>) {
  asOwner.cookie = owner.cookie;
  const ids: Record<string, string> = { org_id: owner.orgId };
  let body: unknown;
  const key = `${row.method} ${row.path}`;
  if (row.path.includes('{user_id}'))
    ids.user_id = (await t.addUser(`target${++serial}@example.com`, 'member', owner.orgId)).userId;
  if (row.path.startsWith('/api/clusters/')) {
    ids.id = (
      await t.request('POST', '/api/clusters', { as: asOwner, body: { name: `c${++serial}` } })
    ).json<{ id: string }>().id;
  }
  if (row.path.startsWith('/api/orgs/{org_id}/invitations/')) {
    ids.id = (
      await t.request('POST', `/api/orgs/${owner.orgId}/invitations`, {
        as: asOwner,
        body: { email: `inv${++serial}@example.com`, role: 'viewer' },
      })
    ).json<{ id: string }>().id;
  }
  if (row.path === '/api/pats/{id}') ids.id = caller.pat.id;
  if (row.path.startsWith('/c/') || row.path === '/api/compare') {
    ids.cluster_id = (
      await t.request('POST', '/api/clusters', { as: asOwner, body: { name: `c${++serial}` } })
    ).json<{ id: string }>().id;
    ids['*'] = 'api/health';
  }
  switch (key) {
    case 'GET /api/auth/oidc/callback': {
      // A real sign-in at the IdP up to its redirect back, so the callback has a valid code and state.
      const login = await t.request('GET', '/api/auth/oidc/login');
      const callback = new URL(await signInAtIdp(idp, String(login.headers.location), `u${++serial}`));
      return {
        path: `${callback.pathname}${callback.search}`,
        body,
        headers: { cookie: String(login.headers['set-cookie']).split(';')[0] as string },
      };
    }
    case 'POST /api/auth/oidc/backchannel-logout':
      body = { logout_token: await idp.signLogoutToken({ sub: 'nobody' }) };
      break;
    case 'POST /api/auth/break-glass/login':
      body = testBreakGlass;
      break;
    case 'PATCH /api/account':
      body = { currentOrgId: owner.orgId };
      break;
    case 'PATCH /api/preferences':
      body = { theme: 'dark' };
      break;
    case 'POST /api/orgs':
    case 'PATCH /api/orgs/{org_id}':
      body = { name: `org ${++serial}` };
      break;
    case 'PATCH /api/orgs/{org_id}/members/{user_id}':
      body = { role: 'viewer' };
      break;
    case 'POST /api/orgs/{org_id}/invitations':
      body = { email: `new${++serial}@example.com`, role: 'member' };
      break;
    case 'POST /api/invitations/accept': {
      const invited = await t.request('POST', `/api/orgs/${otherOrgId}/invitations`, {
        as: asOwner,
        body: { email: caller.email, role: 'viewer' },
      });
      body = { token: invited.json<{ token: string }>().token };
      break;
    }
    case 'POST /api/orgs/{org_id}/sso/setup':
      body = { issuer: idp.issuer, clientId: 'hub', clientSecret: 'secret' };
      break;
    case 'POST /api/pats':
      body = { name: 'another' };
      break;
    case 'POST /mcp':
    case 'POST /mcp-readonly':
      // A hub tool, so no agent needs to be connected: the gate is what this test checks.
      body = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_clusters', arguments: {} },
      };
      return { path: row.path, body, headers: { accept: 'application/json, text/event-stream' } };
    case 'GET /api/compare': {
      // Both sides in a cluster of the organisation; no agent is connected here: past the gate, cluster_offline.
      const side = `leftCluster=${ids.cluster_id}&left=shop/web&rightCluster=${ids.cluster_id}&right=shop/web`;
      return { path: `/api/compare?kind=deployments&${side}`, body, headers: {} as Record<string, string> };
    }
    case 'GET /api/fleet/search':
      // The one fleet route with a required parameter (no agent is connected here: 200, every cluster offline).
      return { path: '/api/fleet/search?q=web', body, headers: {} as Record<string, string> };
    case 'POST /api/orgs/{org_id}/billing/checkout':
      body = { plan: 'team' };
      break;
    case 'POST /api/clusters':
    case 'POST /api/clusters/connect':
    case 'PATCH /api/clusters/{id}':
      body = { name: `cluster-${++serial}` };
      break;
  }
  const path = row.path.replace(/\{([\w*]+)\}/g, (_, name: string) => ids[name] ?? `missing-${name}`);
  return { path, body, headers: {} as Record<string, string> };
}

/** Routes every caller reaches and gets 405 from: a stateless MCP server has no stream to open or session to end. */
const statelessRefusals = new Set(['GET /mcp', 'DELETE /mcp', 'GET /mcp-readonly', 'DELETE /mcp-readonly']);

describe('the role matrix in docs/api/roles.md', () => {
  const matrix = documentedMatrix();

  it('lists every route of the OpenAPI document, and nothing else', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const served = Object.entries(doc.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((m) => m !== 'head')
          .map((m) => `${m.toUpperCase()} ${path}`),
      )
      .sort();
    expect(matrix.map((row) => `${row.method} ${row.path}`).sort()).toEqual(served);
  });

  for (const row of matrix) {
    for (const role of roles) {
      for (const via of ['session', 'PAT'] as const) {
        const expected =
          row.credentials === 'public' ||
          (row.allowed[role] && (via === 'session' || row.credentials === 'session or PAT'));
        it(`${row.method} ${row.path} as ${role} with a ${via}: ${expected ? 'allowed' : 'forbidden'}`, async () => {
          const caller = await principal(role);
          const { path, body, headers } = await concrete(row, caller);
          const as: Credential = via === 'session' ? { cookie: caller.cookie } : { pat: caller.pat.token };
          const answer = await t.request(row.method, path, { as, body, headers });
          // docs/architecture.md §4: every answer, allowed or refused, is no-store; every error is { error, code }.
          expect(answer.headers['cache-control']).toBe('no-store');
          if (answer.status >= 400) expect(Object.keys(answer.json()).sort()).toEqual(['code', 'error']);
          if (expected) {
            // 2xx, or the redirects of the OIDC routes; through the tunnel, past the gate: no agent is connected.
            if (row.path.startsWith('/c/') || row.path === '/api/compare')
              expect(answer.json().code, answer.body).toBe('cluster_offline');
            // This hub has no Stripe settings: past the gate, billing answers that it is off.
            else if (row.path.includes('/billing'))
              expect(answer.json().code, answer.body).toBe('billing_disabled');
            else if (statelessRefusals.has(`${row.method} ${row.path}`)) {
              // docs/architecture.md §6.2.6: a stateless MCP endpoint answers GET and DELETE 405, naming POST.
              expect(answer.json().code, answer.body).toBe('method_not_allowed');
              expect(answer.headers.allow).toBe('POST');
            } else expect(answer.status, answer.body).toBeLessThan(400);
          } else {
            expect(answer.status, answer.body).toBe(403);
            expect(answer.json().code).toBe('forbidden');
          }
        });
      }
    }
  }

  // docs/architecture.md §4: strict schemas — an unknown query parameter is an error, not dropped. Except where others set
  // the query: the tunnel's goes to the agent, whose routes judge it; the IdP adds its own to the callback
  // (iss, session_state …); Prometheus scrape configs may add `params` to /metrics.
  const othersSetTheQuery = (r: Row) =>
    r.path.startsWith('/c/') || r.path === '/api/auth/oidc/callback' || r.path === '/metrics';
  for (const row of matrix.filter((r) => !othersSetTheQuery(r))) {
    it(`${row.method} ${row.path} refuses an unknown query parameter`, async () => {
      const caller = await principal('owner');
      const { path, body, headers } = await concrete(row, caller);
      const answer = await t.request(row.method, `${path}${path.includes('?') ? '&' : '?'}unexpected=1`, {
        as: { cookie: caller.cookie },
        body,
        headers,
      });
      expect(answer.status, answer.body).toBe(400);
      expect(answer.json()).toEqual({
        code: 'invalid_request',
        error: expect.stringContaining('unexpected'),
      });
    });
  }
});
