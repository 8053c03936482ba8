import type { Stripe } from 'stripe';
import type { Plan } from '../../config/billing-config.ts';
import type { Db } from '../../db/directory.ts';
import { type Account, accountOf, accountOfCustomer } from './accounts.ts';

/** What an event does to an organization's billing row; `outcome` goes to the audit log. */
export interface Effect {
  orgId?: string;
  changes?: Partial<Omit<Account, 'org_id' | 'updated_at'>>;
  outcome: 'applied' | 'stale' | 'not_current' | 'unchanged' | 'no_organization';
}

export const handledEvents = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);
const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The organization an object belongs to: our metadata on it, else its Stripe customer. */
async function accountFor(db: Db, orgId: string | undefined, customerId: string | undefined) {
  const byOrg = orgId ? await accountOf(db, orgId) : undefined;
  if (byOrg) return { orgId, account: byOrg };
  // An organization deleted since checkout has no row to write; the customer may still lead to one.
  if (orgId && (await db.selectFrom('orgs').select('id').where('id', '=', orgId).executeTakeFirst()))
    return { orgId, account: undefined };
  const account = customerId ? await accountOfCustomer(db, customerId) : undefined;
  return { orgId: account?.org_id, account };
}

/** Checkout finished: the organization now has a customer and a subscription; the subscription events carry its state. */
function checkoutCompleted(session: Stripe.Checkout.Session, account: Account | undefined, plans: Plan[]) {
  const plan = plans.find((p) => p.id === session.metadata?.plan);
  return {
    customer_id: idOf(session.customer) ?? account?.customer_id ?? null,
    subscription_id: idOf(session.subscription) ?? account?.subscription_id ?? null,
    // Only until the first subscription event lands: that one is authoritative and carries the period.
    ...(!account?.state_at && plan ? { plan: plan.id, status: 'active' } : {}),
  };
}

/**
 * A subscription's state, unless a newer event already set it: Stripe does not deliver in order. A canceled
 * subscription never comes back, so a late update of it is ignored too, and the deletion of a subscription the
 * organization has since replaced leaves the new one alone.
 */
function subscriptionState(
  event: Stripe.Event,
  subscription: Stripe.Subscription,
  account: Account | undefined,
  plans: Plan[],
): Pick<Effect, 'changes' | 'outcome'> {
  const at = isoOf(event.created);
  const deleted = event.type === 'customer.subscription.deleted';
  if (account?.state_at && at < account.state_at) return { outcome: 'stale' };
  const current = account?.subscription_id;
  if (current === subscription.id && account?.status === 'canceled' && !deleted) return { outcome: 'stale' };
  if (
    current &&
    current !== subscription.id &&
    account?.state_at &&
    (deleted || subscription.status !== 'active')
  )
    return { outcome: 'not_current' };
  const item = subscription.items.data[0];
  const plan =
    plans.find((p) => p.priceId !== null && p.priceId === item?.price.id) ??
    plans.find((p) => p.id === subscription.metadata?.plan);
  return {
    outcome: 'applied',
    changes: {
      customer_id: idOf(subscription.customer) ?? null,
      subscription_id: subscription.id,
      plan: plan?.id ?? account?.plan ?? (plans[0] as Plan).id,
      status: deleted ? 'canceled' : subscription.status,
      current_period_end: !deleted && item ? isoOf(item.current_period_end) : null,
      state_at: at,
    },
  };
}

/** A paid invoice ends a past_due spell; a failed one starts it. Older than the stored state: ignored. */
function invoiceState(
  event: Stripe.Event,
  account: Account | undefined,
): Pick<Effect, 'changes' | 'outcome'> {
  const at = isoOf(event.created);
  if (!account || (account.state_at && at < account.state_at)) return { outcome: 'stale' };
  const paid = event.type === 'invoice.paid';
  const from = paid ? ['past_due', 'unpaid', 'incomplete'] : ['active', 'trialing'];
  if (!from.includes(account.status)) return { outcome: 'unchanged' };
  return { outcome: 'applied', changes: { status: paid ? 'active' : 'past_due', state_at: at } };
}

/** What one handled event changes; the caller stores it with the event id in one transaction. */
export async function effectOf(db: Db, event: Stripe.Event, plans: Plan[]): Promise<Effect> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const found = await accountFor(
        db,
        session.client_reference_id ?? session.metadata?.org_id,
        idOf(session.customer),
      );
      if (!found.orgId) return { outcome: 'no_organization' };
      return {
        orgId: found.orgId,
        outcome: 'applied',
        changes: checkoutCompleted(session, found.account, plans),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const found = await accountFor(db, subscription.metadata?.org_id, idOf(subscription.customer));
      if (!found.orgId) return { outcome: 'no_organization' };
      return { orgId: found.orgId, ...subscriptionState(event, subscription, found.account, plans) };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const found = await accountFor(db, undefined, idOf(event.data.object.customer));
      if (!found.orgId) return { outcome: 'no_organization' };
      return { orgId: found.orgId, ...invoiceState(event, found.account) };
    }
    default:
      return { outcome: 'unchanged' };
  }
}
