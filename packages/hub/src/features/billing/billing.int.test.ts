import { type StripeMock, startStripeMock } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BillingTestHub,
  startBillingTestHub,
  startTestHub,
  type TestHub,
  testWebhookSecret,
} from '../../testing/index.ts';

let mock: StripeMock;
let t: BillingTestHub;
let owner: { cookie: string; orgId: string };

beforeAll(async () => {
  mock = await startStripeMock();
  t = await startBillingTestHub(mock);
  owner = await t.signInBreakGlass();
});
afterAll(async () => {
  await t?.close();
  await mock?.stop();
});

const billing = (orgId: string) => `/api/orgs/${orgId}/billing`;

describe('billing routes against stripe-mock', () => {
  it('a new organization is on the free plan with its usage against the limits', async () => {
    await t.request('POST', '/api/clusters', { as: owner, body: { name: 'first' } });
    const answer = await t.request('GET', billing(owner.orgId), { as: owner });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      plan: 'free',
      subscribedPlan: 'free',
      status: 'none',
      currentPeriodEnd: null,
      clusters: { used: 1, limit: 2 },
      members: { used: 1, invited: 0, limit: 3 },
      plans: [
        { id: 'free', clusters: 2, members: 3 },
        { id: 'team', clusters: 5, members: 10 },
        { id: 'business', clusters: 50, members: 100 },
      ],
    });
  });

  it('checkout answers the Checkout Session URL and makes the Stripe customer once', async () => {
    const first = await t.request('POST', `${billing(owner.orgId)}/checkout`, {
      as: owner,
      body: { plan: 'team' },
    });
    expect(first.status, first.body).toBe(200);
    expect(first.json<{ url: string }>().url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const account = await t.hub.ctx.database.db
      .selectFrom('billing_accounts')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .executeTakeFirstOrThrow();
    expect(account.customer_id).toMatch(/^cus_/);
    await t.request('POST', `${billing(owner.orgId)}/checkout`, { as: owner, body: { plan: 'business' } });
    const again = await t.hub.ctx.database.db
      .selectFrom('billing_accounts')
      .select('customer_id')
      .where('org_id', '=', owner.orgId)
      .executeTakeFirstOrThrow();
    expect(again.customer_id).toBe(account.customer_id);
    const audit = await t.request('GET', `/api/orgs/${owner.orgId}/audit?action=billing.checkout`, {
      as: owner,
    });
    expect(audit.json<{ items: { detail: unknown }[] }>().items.map((i) => i.detail)).toEqual([
      { plan: 'business' },
      { plan: 'team' },
    ]);
  });

  it('an unknown plan or the free plan is a 400 naming the field', async () => {
    for (const plan of ['platinum', 'free']) {
      const answer = await t.request('POST', `${billing(owner.orgId)}/checkout`, {
        as: owner,
        body: { plan },
      });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({ code: 'invalid_request', error: expect.stringContaining('plan') });
    }
    const missing = await t.request('POST', `${billing(owner.orgId)}/checkout`, { as: owner, body: {} });
    expect(missing.json().code).toBe('invalid_request');
  });

  it('the portal answers a Customer Portal URL once the organization has a customer, else 409', async () => {
    const portal = await t.request('POST', `${billing(owner.orgId)}/portal`, { as: owner });
    expect(portal.status, portal.body).toBe(200);
    expect(portal.json<{ url: string }>().url).toMatch(/^https:\/\//);
    const orgId = await t.createOrg('no customer');
    const other = await t.addUser('newcomer@example.com', 'owner', orgId);
    const none = await t.request('POST', `${billing(orgId)}/portal`, { as: { cookie: other.cookie } });
    expect(none.status).toBe(409);
    expect(none.json().code).toBe('conflict');
  });

  it('is for owners: members and viewers get 403', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const user = await t.addUser(`${role}@example.com`, role, owner.orgId);
      for (const [method, path] of [
        ['GET', billing(owner.orgId)],
        ['POST', `${billing(owner.orgId)}/portal`],
      ] as const) {
        const answer = await t.request(method, path, { as: { cookie: user.cookie } });
        expect(answer.status).toBe(403);
        expect(answer.json().code).toBe('forbidden');
      }
    }
  });

  it('never writes the Stripe secrets to the log', () => {
    const log = t.logs.join('\n');
    expect(log).not.toContain(mock.secretKey);
    expect(log).not.toContain(testWebhookSecret);
  });

  it('Stripe out of reach is a 502 payment_provider_error', async () => {
    const down = await startBillingTestHub({ ...mock, url: 'http://127.0.0.1:9' });
    try {
      const signedIn = await down.signInBreakGlass();
      const answer = await down.request('POST', `${billing(signedIn.orgId)}/checkout`, {
        as: signedIn,
        body: { plan: 'team' },
      });
      expect(answer.status).toBe(502);
      expect(answer.json().code).toBe('payment_provider_error');
      expect(down.logs.join('\n')).not.toContain(mock.secretKey);
    } finally {
      await down.close();
    }
  });
});

describe('a self-hosted hub without Stripe settings', () => {
  let plain: TestHub;
  beforeAll(async () => {
    plain = await startTestHub();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('answers every billing route 404 billing_disabled and applies no limits', async () => {
    const signedIn = await plain.signInBreakGlass();
    for (const [method, path] of [
      ['GET', billing(signedIn.orgId)],
      ['POST', `${billing(signedIn.orgId)}/checkout`],
      ['POST', `${billing(signedIn.orgId)}/portal`],
      ['POST', '/api/billing/webhook'],
    ] as const) {
      const body = path.endsWith('checkout') ? { plan: 'team' } : undefined;
      const answer = await plain.request(method, path, { as: signedIn, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json().code).toBe('billing_disabled');
    }
    for (let n = 0; n < 6; n++) {
      const cluster = await plain.request('POST', '/api/clusters', { as: signedIn, body: { name: `c${n}` } });
      expect(cluster.status).toBe(201);
    }
  });
});
