import { AppError, badRequest, errorResponses, Nullable, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { OrgParams } from '../../http/org-schemas.ts';
import { access, principalOf } from '../../http/principal.ts';
import type { Billing } from '../../services/billing/service.ts';

type Deps = Pick<HubContext, 'billing'>;

const Usage = Type.Object({ used: Type.Integer(), limit: Type.Integer() });
const BillingStatus = Type.Object({
  plan: Type.String({
    description: 'the plan whose limits apply now (the free plan unless a subscription is paid for)',
  }),
  subscribedPlan: Type.String({ description: 'the plan of the subscription, whatever its status' }),
  status: Type.String({
    description: "Stripe's subscription status (active, trialing, past_due, canceled, …), or none",
  }),
  currentPeriodEnd: Nullable(Type.String({ format: 'date-time' })),
  clusters: Usage,
  members: Type.Intersect([
    Usage,
    Type.Object({
      invited: Type.Integer({ description: 'pending invitations, which count against the limit' }),
    }),
  ]),
  plans: Type.Array(Type.Object({ id: Type.String(), clusters: Type.Integer(), members: Type.Integer() })),
});
const SessionUrl = Type.Object({
  url: Type.String({ description: "Stripe's hosted page; send the owner there" }),
});

/** The hub's billing, or `billing_disabled` on a hub without Stripe settings (self-hosted: no plans, no limits). */
function billingOf(ctx: Deps): Billing {
  if (!ctx.billing)
    throw new AppError(
      'billing_disabled',
      'billing is not configured on this hub: there are no plans or limits',
    );
  return ctx.billing;
}

export function billingRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/orgs/:org_id/billing',
    {
      config: access('owner'),
      schema: {
        summary: "The organization's plan, subscription status and usage against the plan's limits (owner)",
        tags: ['billing'],
        params: OrgParams,
        querystring: Query({}),
        response: { 200: BillingStatus, ...errorResponses },
      },
    },
    async (request) => billingOf(ctx).status(principalOf(request).orgId),
  );
  app.post(
    '/api/orgs/:org_id/billing/checkout',
    {
      config: access('owner'),
      schema: {
        summary: 'Start a Stripe Checkout for a paid plan; answers the Checkout page URL (owner)',
        tags: ['billing'],
        params: OrgParams,
        querystring: Query({}),
        body: Type.Object(
          { plan: Type.String({ minLength: 1, maxLength: 32, description: 'a paid plan of the catalogue' }) },
          { additionalProperties: false },
        ),
        response: { 200: SessionUrl, ...errorResponses },
      },
    },
    async (request) => billingOf(ctx).checkout(principalOf(request), request.body.plan, request.ip),
  );
  app.post(
    '/api/orgs/:org_id/billing/portal',
    {
      config: access('owner'),
      schema: {
        summary:
          'Open the Stripe Customer Portal (change plan, payment method, cancel); answers its URL (owner)',
        tags: ['billing'],
        params: OrgParams,
        querystring: Query({}),
        response: { 200: SessionUrl, ...errorResponses },
      },
    },
    async (request) => billingOf(ctx).portal(principalOf(request), request.ip),
  );
  // Stripe signs the exact bytes it sends: only this route keeps the JSON body raw.
  void app.register((plugin, _options, done) => {
    const scope = plugin as unknown as HubApp;
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, parsed) =>
      parsed(null, body),
    );
    scope.post(
      '/api/billing/webhook',
      {
        config: access('public'),
        schema: {
          summary:
            'Stripe webhook: a signed event (Stripe-Signature) changes the subscription state, once per event id',
          tags: ['billing'],
          querystring: Query({}),
          headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String({ maxLength: 4096 })) }),
          response: {
            200: Type.Object({
              received: Type.Boolean(),
              outcome: Type.String({
                description: 'applied, stale, not_current, unchanged, duplicate, no_organization or ignored',
              }),
            }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const billing = billingOf(ctx);
        if (!Buffer.isBuffer(request.body)) throw badRequest('the body must be a JSON Stripe event');
        return billing.receive(request.body, request.headers['stripe-signature']);
      },
    );
    done();
  });
}
