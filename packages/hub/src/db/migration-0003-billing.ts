import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Billing with Stripe: each organization's subscription state, and the webhook events already applied. */
export const billingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('billing_accounts')
      .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id').onDelete('cascade'))
      .addColumn('customer_id', 'text', (c) => c.unique())
      .addColumn('subscription_id', 'text')
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('current_period_end', 'text')
      .addColumn('state_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('billing_events')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text')
      .addColumn('received_at', 'text', (c) => c.notNull())
      .execute();
  },
};
