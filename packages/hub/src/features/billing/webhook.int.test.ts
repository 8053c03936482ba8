import { type StripeMock, startStripeMock } from '@binnacle/testkit';
import type { Stripe } from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addedUsersIdp,
  type BillingTestHub,
  startBillingTestHub,
  testPrices,
  testWebhookSecret,
} from '../../testing/index.ts';

let mock: StripeMock;
let t: BillingTestHub;
let serial = 0;

beforeAll(async () => {
  mock = await startStripeMock();
  t = await startBillingTestHub(mock, addedUsersIdp);
});
afterAll(async () => {
  await t?.close();
  await mock?.stop();
});

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

/** A Stripe event around a real object from stripe-mock's fixtures, with our fields over it. */
function event(type: string, object: object, created = nowSeconds()) {
  return {
    id: `evt_test_${++serial}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** A subscription of the organization's customer for a price, from stripe-mock's fixture. */
async function subscription(orgId: string, customer: string, price: string, status = 'active') {
  const fixture = await t.stripe.subscriptions.retrieve('sub_fixture');
  const item = fixture.items.data[0] as Stripe.SubscriptionItem;
  return {
    ...fixture,
    id: `sub_${orgId.slice(0, 8)}`,
    customer,
    status,
    metadata: { org_id: orgId },
    items: {
      ...fixture.items,
      data: [
        { ...item, price: { ...item.price, id: price }, current_period_end: nowSeconds() + 30 * 86_400 },
      ],
    },
  };
}

/** POSTs a payload to the webhook signed as Stripe does (secret and timestamp overridable). */
function deliver(payload: unknown, options: { secret?: string; timestamp?: number; signature?: false } = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const header = t.stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? testWebhookSecret,
    timestamp: options.timestamp ?? nowSeconds(),
  });
  return t.request('POST', '/api/billing/webhook', {
    body,
    origin: null,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(options.signature === false ? {} : { 'stripe-signature': header }),
    },
  });
}

/** A fresh organization with an owner signed in and a Stripe customer id. */
async function organization() {
  const orgId = await t.createOrg(`org ${++serial}`);
  const owner = await t.addUser(`owner${serial}@example.com`, 'owner', orgId);
  return { orgId, as: { cookie: owner.cookie }, customer: `cus_test_${serial}` };
}

const status = async (org: Awaited<ReturnType<typeof organization>>) =>
  (await t.request('GET', `/api/orgs/${org.orgId}/billing`, { as: org.as })).json<{
    plan: string;
    status: string;
    currentPeriodEnd: string | null;
  }>();

const stored = async (eventId: string) => ({
  events: await t.hub.ctx.database.db
    .selectFrom('billing_events')
    .selectAll()
    .where('event_id', '=', eventId)
    .execute(),
  audit: await t.hub.ctx.database.db
    .selectFrom('audit_events')
    .selectAll()
    .where('target_id', '=', eventId)
    .execute(),
});

describe('POST /api/billing/webhook', () => {
  it('applies a well-signed checkout.session.completed and records it in the audit log', async () => {
    const org = await organization();
    const session = await t.stripe.checkout.sessions.retrieve('cs_fixture');
    const completed = event('checkout.session.completed', {
      ...session,
      client_reference_id: org.orgId,
      customer: org.customer,
      subscription: 'sub_from_checkout',
      metadata: { org_id: org.orgId, plan: 'team' },
    });
    const answer = await deliver(completed);
    expect(answer.status, answer.body).toBe(200);
    expect(answer.json()).toEqual({ received: true, outcome: 'applied' });
    expect(await status(org)).toMatchObject({ plan: 'team', status: 'active' });
    const audit = await t.request(
      'GET',
      `/api/orgs/${org.orgId}/audit?action=billing.checkout.session.completed`,
      {
        as: org.as,
      },
    );
    expect(audit.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({
        via: 'system',
        target: { type: 'stripe_event', id: completed.id, name: 'checkout.session.completed' },
        detail: { outcome: 'applied', plan: 'team', status: 'active' },
      }),
    ]);
  });

  it('refuses a bad signature, a missing one, a stale timestamp and a body that is not JSON: 400, nothing stored', async () => {
    const org = await organization();
    const payload = event(
      'customer.subscription.created',
      await subscription(org.orgId, org.customer, testPrices.team),
    );
    const refusals = [
      { answer: await deliver(payload, { secret: 'whsec_someone_else' }), code: 'invalid_signature' },
      { answer: await deliver(payload, { signature: false }), code: 'invalid_signature' },
      { answer: await deliver(payload, { timestamp: nowSeconds() - 301 }), code: 'invalid_signature' },
      { answer: await deliver('{"id": "evt_broken", '), code: 'invalid_request' },
    ];
    for (const { answer, code } of refusals) {
      expect(answer.status, answer.body).toBe(400);
      expect(answer.json().code).toBe(code);
    }
    expect(refusals[2]?.answer.json().error).toContain('300s');
    expect(await stored(payload.id)).toEqual({ events: [], audit: [] });
    expect(await stored('evt_broken')).toEqual({ events: [], audit: [] });
    expect(await status(org)).toMatchObject({ plan: 'free', status: 'none' });
  });

  it('a signature within the tolerance window passes even when the clock moved on a little', async () => {
    const org = await organization();
    const payload = event(
      'customer.subscription.created',
      await subscription(org.orgId, org.customer, testPrices.team),
    );
    const answer = await deliver(payload, { timestamp: nowSeconds() - 290 });
    expect(answer.json()).toEqual({ received: true, outcome: 'applied' });
  });

  it('applies a replayed event once', async () => {
    const org = await organization();
    const payload = event(
      'customer.subscription.created',
      await subscription(org.orgId, org.customer, testPrices.team),
    );
    expect((await deliver(payload)).json()).toEqual({ received: true, outcome: 'applied' });
    // The owner downgrades meanwhile; the replay of the older event must not undo that.
    const later = event(
      'customer.subscription.updated',
      await subscription(org.orgId, org.customer, testPrices.business),
      payload.created + 60,
    );
    await deliver(later);
    expect((await deliver(payload)).json()).toEqual({ received: true, outcome: 'duplicate' });
    expect((await stored(payload.id)).audit).toHaveLength(1);
    expect(await status(org)).toMatchObject({ plan: 'business', status: 'active' });
  });

  it('ignores a subscription update older than the state it already has (out of order)', async () => {
    const org = await organization();
    const base = nowSeconds();
    const newer = event(
      'customer.subscription.updated',
      await subscription(org.orgId, org.customer, testPrices.business),
      base,
    );
    const older = event(
      'customer.subscription.updated',
      await subscription(org.orgId, org.customer, testPrices.team),
      base - 120,
    );
    expect((await deliver(newer)).json().outcome).toBe('applied');
    expect((await deliver(older)).json().outcome).toBe('stale');
    expect(await status(org)).toMatchObject({ plan: 'business' });
    // Stripe never revives a canceled subscription: an update delivered after its deletion changes nothing.
    const deleted = event(
      'customer.subscription.deleted',
      await subscription(org.orgId, org.customer, testPrices.business, 'canceled'),
      base + 10,
    );
    const late = event(
      'customer.subscription.updated',
      await subscription(org.orgId, org.customer, testPrices.business),
      base + 10,
    );
    expect((await deliver(deleted)).json().outcome).toBe('applied');
    expect((await deliver(late)).json().outcome).toBe('stale');
    expect(await status(org)).toMatchObject({ plan: 'free', status: 'canceled', currentPeriodEnd: null });
  });

  it('a failed invoice makes the subscription past_due (limits kept) and a paid one active again', async () => {
    const org = await organization();
    await deliver(
      event('customer.subscription.created', await subscription(org.orgId, org.customer, testPrices.team)),
    );
    const invoice = await t.stripe.invoices.retrieve('in_fixture');
    t.clock.advance(60_000);
    expect(
      (await deliver(event('invoice.payment_failed', { ...invoice, customer: org.customer }))).json().outcome,
    ).toBe('applied');
    expect(await status(org)).toMatchObject({ plan: 'team', status: 'past_due' });
    t.clock.advance(60_000);
    expect(
      (await deliver(event('invoice.paid', { ...invoice, customer: org.customer }))).json().outcome,
    ).toBe('applied');
    expect(await status(org)).toMatchObject({ plan: 'team', status: 'active' });
  });

  it('answers an unknown event type 200, logs it and stores nothing', async () => {
    const payload = event('customer.tax_id.created', { id: 'txi_1', object: 'tax_id' });
    const answer = await deliver(payload);
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await stored(payload.id)).toEqual({ events: [], audit: [] });
    expect(t.logs.some((line) => line.includes(payload.id) && line.includes('ignored'))).toBe(true);
  });
});

describe('plan limits', () => {
  it('the free plan refuses the third cluster with plan_limit; an upgrade event lifts it, a cancellation brings it back', async () => {
    const org = await organization();
    const register = (name: string) => t.request('POST', '/api/clusters', { as: org.as, body: { name } });
    expect((await register('one')).status).toBe(201);
    expect((await register('two')).status).toBe(201);
    const refused = await register('three');
    expect(refused.status).toBe(402);
    expect(refused.json()).toEqual({
      code: 'plan_limit',
      error: expect.stringContaining('free plan allows 2 clusters'),
    });
    const connect = await t.request('POST', '/api/clusters/connect', { as: org.as, body: { name: 'three' } });
    expect(connect.json().code).toBe('plan_limit');

    const upgrade = event(
      'customer.subscription.created',
      await subscription(org.orgId, org.customer, testPrices.team),
    );
    await deliver(upgrade);
    expect((await register('three')).status).toBe(201);

    t.clock.advance(60_000);
    await deliver(
      event(
        'customer.subscription.deleted',
        await subscription(org.orgId, org.customer, testPrices.team, 'canceled'),
      ),
    );
    expect((await register('four')).json().code).toBe('plan_limit');
  });

  it('the free plan refuses an invitation past its members, pending invitations included; re-inviting is fine', async () => {
    const org = await organization();
    const invite = (email: string) =>
      t.request('POST', `/api/orgs/${org.orgId}/invitations`, {
        as: org.as,
        body: { email, role: 'member' },
      });
    expect((await invite('a@example.com')).status).toBe(201);
    expect((await invite('b@example.com')).status).toBe(201);
    const refused = await invite('c@example.com');
    expect(refused.status).toBe(402);
    expect(refused.json()).toEqual({
      code: 'plan_limit',
      error: expect.stringContaining('free plan allows 3 members'),
    });
    expect((await invite('b@example.com')).status).toBe(201);
  });
});
