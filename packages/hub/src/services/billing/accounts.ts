import type { Plan } from '../../config/billing-config.ts';
import { countOf } from '../../db/count.ts';
import type { Db } from '../../db/directory.ts';
import type { BillingAccountsTable } from '../../db/schema.ts';

export type Account = BillingAccountsTable;
type Changes = Partial<Omit<Account, 'org_id' | 'updated_at'>>;

/** Subscription states in which the subscribed plan's limits apply; past_due keeps them while Stripe retries. */
const paying = new Set(['active', 'trialing', 'past_due']);

export const accountOf = (db: Db, orgId: string): Promise<Account | undefined> =>
  db.selectFrom('billing_accounts').selectAll().where('org_id', '=', orgId).executeTakeFirst();

export const accountOfCustomer = (db: Db, customerId: string): Promise<Account | undefined> =>
  db.selectFrom('billing_accounts').selectAll().where('customer_id', '=', customerId).executeTakeFirst();

/** Creates the organization's billing row on first use (free plan, no subscription) or changes it. */
export async function saveAccount(
  db: Db,
  orgId: string,
  changes: Changes,
  free: Plan,
  at: string,
): Promise<void> {
  await db
    .insertInto('billing_accounts')
    .values({
      org_id: orgId,
      customer_id: null,
      subscription_id: null,
      plan: free.id,
      status: 'none',
      current_period_end: null,
      state_at: null,
      ...changes,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ ...changes, updated_at: at }))
    .execute();
}

/** The plan whose limits apply: the subscribed one while it is paid for, else the free plan (the first). */
export function effectivePlan(plans: Plan[], account: Account | undefined): Plan {
  const free = plans[0] as Plan;
  if (!account || !paying.has(account.status)) return free;
  return plans.find((plan) => plan.id === account.plan) ?? free;
}

/**
 * Clusters and members counted against the plan; pending invitations count as members (they become ones),
 * except one for `reinvited`, which a new invitation to the same address replaces.
 */
export async function usageOf(db: Db, orgId: string, now: string, reinvited?: string) {
  const [clusters, members, invited] = await Promise.all([
    countOf(db.selectFrom('clusters').where('org_id', '=', orgId)),
    countOf(db.selectFrom('memberships').where('org_id', '=', orgId)),
    countOf(
      db
        .selectFrom('invitations')
        .where('org_id', '=', orgId)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', now)
        .$if(reinvited !== undefined, (q) => q.where('email', '!=', reinvited as string)),
    ),
  ]);
  return { clusters, members, invited };
}
