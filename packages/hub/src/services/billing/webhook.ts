import { AppError, badRequest } from '@binnacle/common/server';
import { Stripe } from 'stripe';
import type { Plan } from '../../config/billing-config.ts';
import { iso } from '../../security/clock.ts';
import { AuditLog } from '../audit/audit-log.ts';
import { saveAccount } from './accounts.ts';
import { effectOf, handledEvents } from './events.ts';
import type { BillingDeps } from './service.ts';

/** Checks the signature against the raw body and the tolerance window (on the hub's clock), then parses it. */
function verified(deps: BillingDeps, body: Buffer, signature: string | undefined): Stripe.Event {
  if (!signature) throw new AppError('invalid_signature', 'the Stripe-Signature header is missing');
  const { webhookSecret, toleranceSeconds } = deps.config;
  // In milliseconds, as the library takes it.
  const receivedAt = deps.clock.now().getTime();
  let event: Stripe.Event;
  try {
    event = deps.stripe.webhooks.constructEvent(
      body,
      signature,
      webhookSecret,
      toleranceSeconds,
      undefined,
      receivedAt,
    );
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeSignatureVerificationError))
      throw badRequest('the body is not JSON');
    throw new AppError(
      'invalid_signature',
      /tolerance/i.test(error.message)
        ? `the Stripe-Signature timestamp is more than ${toleranceSeconds}s away from the hub's clock`
        : 'the Stripe-Signature header does not match the body and the webhook secret',
    );
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number')
    throw badRequest('the body is not a Stripe event (id, type, created)');
  return event;
}

/**
 * A verified Stripe event, applied once: its id, the billing change and the audit entry are written in one
 * transaction, so a replay (Stripe retries, or an attacker resending a captured delivery) changes nothing.
 * Event types the hub does not use are answered 200, so Stripe does not retry them, and only logged.
 */
export async function receiveEvent(deps: BillingDeps, body: Buffer, signature: string | undefined) {
  const event = verified(deps, body, signature);
  if (!handledEvents.has(event.type)) {
    // A warning: the webhook endpoint in Stripe lists more event types than the hub uses (docs/billing.md).
    deps.log.warn(
      { stripeEvent: event.id, type: event.type },
      'Stripe event type not used by the hub: ignored; remove it from the webhook endpoint',
    );
    return { received: true, outcome: 'ignored' };
  }
  const plans = deps.config.plans;
  return deps.db.transaction().execute(async (tx) => {
    const at = iso(deps.clock.now());
    const effect = await effectOf(tx, event, plans);
    const inserted = await tx
      .insertInto('billing_events')
      .values({ event_id: event.id, type: event.type, org_id: effect.orgId ?? null, received_at: at })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { received: true, outcome: 'duplicate' };
    if (!effect.orgId) {
      deps.log.warn(
        { stripeEvent: event.id, type: event.type },
        'Stripe event names no organization of this hub',
      );
      return { received: true, outcome: effect.outcome };
    }
    if (effect.changes) await saveAccount(tx, effect.orgId, effect.changes, plans[0] as Plan, at);
    await new AuditLog(tx, deps.clock).record({
      orgId: effect.orgId,
      action: `billing.${event.type}`,
      target: { type: 'stripe_event', id: event.id, name: event.type },
      detail: {
        outcome: effect.outcome,
        ...(effect.changes?.plan ? { plan: effect.changes.plan } : {}),
        ...(effect.changes?.status ? { status: effect.changes.status } : {}),
      },
    });
    return { received: true, outcome: effect.outcome };
  });
}
