import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { Badge, type Tone } from '../../ui/Badge.tsx';
import { controlLook } from '../../ui/forms.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { useHubSearch } from '../route-api.ts';
import { accountQuery } from '../shell/HubShell.tsx';
import { UsageBar } from './UsageBar.tsx';

type Billing = HubAnswer<'/api/orgs/{org_id}/billing'>;

export interface BillingSearch {
  /** How Stripe Checkout ended: it sends the browser back here with `?checkout=success` or `cancelled`. */
  checkout?: 'success' | 'cancelled';
}

/** Back from Checkout: what happened, since the plan itself changes only once Stripe's webhook confirms it. */
const checkoutWords = {
  success:
    'Checkout complete: the new plan applies as soon as Stripe confirms the payment (usually seconds).',
  cancelled: 'Checkout cancelled: nothing was changed.',
};

/** Stripe's subscription statuses, by what they mean for the organisation. */
const statusTone: Record<string, Tone> = {
  active: 'good',
  trialing: 'info',
  past_due: 'warn',
  incomplete: 'warn',
  unpaid: 'bad',
  canceled: 'muted',
  incomplete_expired: 'muted',
};

/** A note in place of the page: billing is off on this hub, or it is the owners' to see. */
function Note({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div
      role="status"
      className="rounded-md border border-slate-300 bg-white p-4 text-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <p className="font-medium">{title}</p>
      <p className="mt-1 text-slate-700 dark:text-slate-300">{children}</p>
    </div>
  );
}

/**
 * The organisation's plan and usage against its limits, for its owners: change the plan through Stripe Checkout,
 * manage payment and cancel in Stripe's portal. A hub without billing, or a reader who is not an owner, gets a
 * sentence that says so rather than an error.
 */
export function BillingPage() {
  const { checkout } = useHubSearch('/signed-in/settings/billing');
  const account = useQuery(accountQuery);
  const orgId = account.data?.currentOrg.id ?? '';
  const billing = useQuery({
    queryKey: ['billing', orgId],
    enabled: Boolean(orgId),
    queryFn: ({ signal }) => hub.get('/api/orgs/{org_id}/billing', { params: { org_id: orgId }, signal }),
  });
  const error = billing.error instanceof ApiError ? billing.error : undefined;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Billing</h1>
      {checkout && checkoutWords[checkout] && (
        <p role="status" className="text-sm">
          {checkoutWords[checkout]}
        </p>
      )}
      {billing.isPending ? (
        <Loading what="billing" />
      ) : error?.code === 'billing_disabled' ? (
        <Note title="Billing is not configured on this hub">
          This hub runs without a payment provider: there are no plans and no limits on clusters or members.
        </Note>
      ) : error?.status === 403 ? (
        <Note title="Billing is for the organization's owners">
          You act as {account.data?.currentOrg.role}: an owner sees the plan and usage here and changes the
          plan.
        </Note>
      ) : billing.isError ? (
        <ErrorMessage error={billing.error} what="billing" />
      ) : (
        <BillingCards billing={billing.data} orgId={orgId} />
      )}
    </div>
  );
}

/** Sends the browser to the Stripe page a billing route answers (Checkout, the portal). */
function useStripePage<V>(start: (value: V) => Promise<{ url: string }>) {
  return useMutation({ mutationFn: start, onSuccess: ({ url }) => window.location.assign(url) });
}

const buttonLook = `${controlLook} hover:bg-slate-100 dark:hover:bg-slate-700`;
const mutedLook = 'text-slate-600 dark:text-slate-400';

function BillingCards({ billing, orgId }: { billing: Billing; orgId: string }) {
  return (
    <>
      <PlanCard billing={billing} orgId={orgId} />
      <Card title="Usage">
        <div className="flex flex-col gap-4">
          <UsageBar label="Clusters" used={billing.clusters.used} limit={billing.clusters.limit} />
          <UsageBar
            label="Members"
            used={billing.members.used + billing.members.invited}
            limit={billing.members.limit}
            note={billing.members.invited > 0 ? `${billing.members.invited} invited` : undefined}
          />
        </div>
      </Card>
      <PlansCard billing={billing} orgId={orgId} />
    </>
  );
}

/** The plan in force and the subscription behind it; Stripe's portal for the rest. */
function PlanCard({ billing, orgId }: { billing: Billing; orgId: string }) {
  const portal = useStripePage(() =>
    hub.post('/api/orgs/{org_id}/billing/portal', { params: { org_id: orgId } }),
  );
  const subscribed = billing.status !== 'none';
  return (
    <Card
      title="Plan"
      aside={
        <button
          type="button"
          className={buttonLook}
          disabled={portal.isPending}
          onClick={() => portal.mutate(undefined)}
        >
          {portal.isPending ? 'Opening…' : 'Manage billing'}
        </button>
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className={mutedLook}>Plan</dt>
        <dd className="font-semibold capitalize">{billing.plan}</dd>
        <dt className={mutedLook}>Subscription</dt>
        <dd className="flex flex-wrap items-center gap-2">
          {subscribed ? (
            <Badge tone={statusTone[billing.status] ?? 'muted'}>{billing.status.replace('_', ' ')}</Badge>
          ) : (
            <span>none: no paid plan, so the free plan's limits apply</span>
          )}
          {subscribed && billing.subscribedPlan !== billing.plan && (
            <span className={`text-xs ${mutedLook}`}>
              to {billing.subscribedPlan}; the limits of {billing.plan} apply until it is paid for
            </span>
          )}
        </dd>
        <dt className={mutedLook}>Period ends</dt>
        <dd className="font-mono text-xs leading-5">{billing.currentPeriodEnd?.slice(0, 10) ?? '—'}</dd>
      </dl>
      {portal.isError && (
        <div className="mt-3">
          <ErrorMessage error={portal.error} what="the billing portal" verb="open" />
        </div>
      )}
    </Card>
  );
}

/** The catalogue's plans with their limits; a paid plan other than the current one starts a Checkout. */
function PlansCard({ billing, orgId }: { billing: Billing; orgId: string }) {
  const checkout = useStripePage((plan: string) =>
    hub.post('/api/orgs/{org_id}/billing/checkout', { params: { org_id: orgId }, body: { plan } }),
  );
  // The catalogue's first plan is the one without a subscription: leaving a paid plan is cancelling it.
  const free = billing.plans[0]?.id;
  return (
    <Card title="Plans">
      <Table
        columns={[
          'Plan',
          { label: 'Clusters', right: true },
          { label: 'Members', right: true },
          { label: 'Change', right: true, hidden: true },
        ]}
      >
        {billing.plans.map((plan) => (
          <tr key={plan.id}>
            <td className="py-2 pr-4 font-medium capitalize">{plan.id}</td>
            <td className="pr-4 text-right tabular-nums">{plan.clusters}</td>
            <td className="pr-4 text-right tabular-nums">{plan.members}</td>
            <td className="text-right">
              {plan.id === billing.plan ? (
                <Badge tone="info">current</Badge>
              ) : plan.id === free ? (
                <span className={`text-xs ${mutedLook}`}>cancel in Manage billing</span>
              ) : (
                <button
                  type="button"
                  aria-label={`Change plan to ${plan.id}`}
                  className={buttonLook}
                  disabled={checkout.isPending}
                  onClick={() => checkout.mutate(plan.id)}
                >
                  Change plan
                </button>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {checkout.isError && (
        <div className="mt-3">
          <ErrorMessage error={checkout.error} what="the checkout" verb="start" />
        </div>
      )}
    </Card>
  );
}
