import { AppError, badRequest } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Stripe } from 'stripe';
import type { BillingConfig, Plan } from '../../config/billing-config.ts';
import type { Db } from '../../db/directory.ts';
import { type Clock, iso } from '../../security/clock.ts';
import type { Principal } from '../../security/principal.ts';
import { AuditLog } from '../audit/audit-log.ts';
import { accountOf, effectivePlan, saveAccount, usageOf } from './accounts.ts';
import { callStripe, stripeClient } from './stripe-api.ts';
import { receiveEvent } from './webhook.ts';

export type LimitedResource = 'clusters' | 'members';

export interface BillingDeps {
  config: BillingConfig;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  stripe: Stripe;
  publicUrl: string;
}

/** Where Stripe's hosted pages send the owner back to: the hub's billing page. */
const returnUrl = (publicUrl: string, outcome?: string) =>
  `${publicUrl}/settings/billing${outcome ? `?checkout=${outcome}` : ''}`;

/** Billing with Stripe for one hub (ADR 0041): plan and usage, checkout, portal, limits and the webhook. */
export class Billing {
  readonly #deps: BillingDeps;

  constructor(config: BillingConfig, options: Omit<BillingDeps, 'config' | 'stripe'>) {
    this.#deps = { ...options, config, stripe: stripeClient(config) };
  }

  get #free(): Plan {
    return this.#deps.config.plans[0] as Plan;
  }

  async status(orgId: string) {
    const { db, clock, config } = this.#deps;
    const account = await accountOf(db, orgId);
    const plan = effectivePlan(config.plans, account);
    const usage = await usageOf(db, orgId, iso(clock.now()));
    return {
      plan: plan.id,
      subscribedPlan: account?.plan ?? this.#free.id,
      status: account?.status ?? 'none',
      currentPeriodEnd: account?.current_period_end ?? null,
      clusters: { used: usage.clusters, limit: plan.clusters },
      members: { used: usage.members, invited: usage.invited, limit: plan.members },
      plans: config.plans.map(({ id, clusters, members }) => ({ id, clusters, members })),
    };
  }

  /** A Checkout Session for a paid plan's price; the organization's Stripe customer is made on first use. */
  async checkout(principal: Principal, planId: string, ip: string) {
    const { config, stripe, log, db, publicUrl } = this.#deps;
    const plan = config.plans.find((p) => p.id === planId);
    const paid = config.plans.slice(1).map((p) => p.id);
    if (!plan) throw badRequest(`plan: unknown plan "${planId}"; one of ${paid.join(', ')}`);
    if (!plan.priceId) throw badRequest(`plan: ${plan.id} is the free plan and needs no checkout`);
    const account = await accountOf(db, principal.orgId);
    if (account && effectivePlan(config.plans, account) !== this.#free)
      throw new AppError(
        'conflict',
        `this organization already subscribes to ${account.plan}: change plans in the billing portal`,
      );
    const customer = await this.#customer(principal);
    const metadata = { org_id: principal.orgId, plan: plan.id };
    const session = await callStripe(log, 'create a checkout session', () =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: principal.orgId,
        line_items: [{ price: plan.priceId as string, quantity: 1 }],
        metadata,
        subscription_data: { metadata },
        success_url: returnUrl(publicUrl, 'success'),
        cancel_url: returnUrl(publicUrl, 'cancelled'),
      }),
    );
    if (!session.url) throw new AppError('payment_provider_error', 'Stripe returned a session without a URL');
    await this.#audit(principal, ip, 'billing.checkout', { plan: plan.id });
    return { url: session.url };
  }

  /** A Customer Portal session, where the owner changes plan, payment method or cancels. */
  async portal(principal: Principal, ip: string) {
    const { stripe, log, db, publicUrl } = this.#deps;
    const customer = (await accountOf(db, principal.orgId))?.customer_id;
    if (!customer)
      throw new AppError(
        'conflict',
        'this organization has no billing account yet: subscribe through checkout first',
      );
    const session = await callStripe(log, 'create a portal session', () =>
      stripe.billingPortal.sessions.create({ customer, return_url: returnUrl(publicUrl) }),
    );
    await this.#audit(principal, ip, 'billing.portal');
    return { url: session.url };
  }

  /**
   * Refuses one more cluster or member when the organization's plan is at its limit (`plan_limit`);
   * `reinvited` is the address of an invitation being sent again (it replaces the pending one).
   */
  async ensureRoom(orgId: string, resource: LimitedResource, reinvited?: string): Promise<void> {
    const { db, clock, config } = this.#deps;
    const plan = effectivePlan(config.plans, await accountOf(db, orgId));
    const usage = await usageOf(db, orgId, iso(clock.now()), reinvited);
    const used = resource === 'clusters' ? usage.clusters : usage.members + usage.invited;
    if (used < plan[resource]) return;
    const what = resource === 'clusters' ? 'clusters' : 'members (pending invitations included)';
    throw new AppError(
      'plan_limit',
      `the ${plan.id} plan allows ${plan[resource]} ${what} and this organization has ${used}; upgrade in billing`,
    );
  }

  /** The webhook: a verified, not yet applied Stripe event changes the subscription state (webhook.ts). */
  receive(body: Buffer, signature: string | undefined) {
    return receiveEvent(this.#deps, body, signature);
  }

  /** The organization's Stripe customer, made once (an idempotency key guards two checkouts at once). */
  async #customer(principal: Principal): Promise<string> {
    const { stripe, log, db, clock } = this.#deps;
    const existing = (await accountOf(db, principal.orgId))?.customer_id;
    if (existing) return existing;
    const customer = await callStripe(log, 'create a customer', () =>
      stripe.customers.create(
        { email: principal.user.email, metadata: { org_id: principal.orgId } },
        { idempotencyKey: `binnacle-customer-${principal.orgId}` },
      ),
    );
    await saveAccount(db, principal.orgId, { customer_id: customer.id }, this.#free, iso(clock.now()));
    return customer.id;
  }

  #audit(principal: Principal, ip: string, action: string, detail?: Record<string, string>) {
    return new AuditLog(this.#deps.db, this.#deps.clock).act(principal, ip, action, undefined, detail);
  }
}
