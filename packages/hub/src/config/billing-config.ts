import { parseDuration } from '@binnacle/common';
import { type OptionSpec, UsageError } from '@binnacle/common/server';
import { secretFile } from './secret-key.ts';

/** One plan of the catalogue: the free plan (the first) has no Stripe price. */
export interface Plan {
  id: string;
  priceId: string | null;
  clusters: number;
  members: number;
}

/** Billing with Stripe, resolved at boot; absent on a self-hosted hub (no plans, no limits). */
export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  /** Another Stripe API base URL (stripe-mock in tests). */
  apiUrl?: string;
  plans: Plan[];
  /** How old a webhook signature's timestamp may be. */
  toleranceSeconds: number;
}

/** The billing settings as flags, variables and the config file give them (ADR 0041). */
export interface BillingSettings {
  stripeSecretKeyFile?: string;
  stripeWebhookSecretFile?: string;
  stripeApiUrl?: string;
  /** `id:clusters:members`, comma-separated; the first is the plan of organizations without a subscription. */
  billingPlans: string;
  /** `plan=price_…`, comma-separated: the Stripe price of every plan but the first. */
  stripePrices?: string;
  stripeWebhookToleranceMs: number;
  /** Derived at boot from the settings above. */
  billing?: BillingConfig;
}

export const billingDefaults = {
  billingPlans: 'free:3:5,team:20:50,business:100:500',
  stripeWebhookToleranceMs: parseDuration('5m', 'stripeWebhookTolerance'),
};

export const stripeSecretKeyEnv = 'BINNACLE_STRIPE_SECRET_KEY';
export const stripeWebhookSecretEnv = 'BINNACLE_STRIPE_WEBHOOK_SECRET';

export const billingOptions: OptionSpec<BillingSettings>[] = [
  {
    flag: 'stripe-secret-key-file',
    key: 'stripeSecretKeyFile',
    env: 'BINNACLE_STRIPE_SECRET_KEY_FILE',
    type: 'path',
    placeholder: 'PATH',
    help: `file holding the Stripe secret API key; or set ${stripeSecretKeyEnv}. Billing is off without one`,
  },
  {
    flag: 'stripe-webhook-secret-file',
    key: 'stripeWebhookSecretFile',
    env: 'BINNACLE_STRIPE_WEBHOOK_SECRET_FILE',
    type: 'path',
    placeholder: 'PATH',
    help: `file holding the Stripe webhook signing secret (whsec_…); or set ${stripeWebhookSecretEnv}`,
  },
  {
    flag: 'stripe-api-url',
    key: 'stripeApiUrl',
    env: 'BINNACLE_STRIPE_API_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'base URL of the Stripe API (stripe-mock for tests)',
    defaultText: 'https://api.stripe.com',
  },
  {
    flag: 'billing-plans',
    key: 'billingPlans',
    env: 'BINNACLE_BILLING_PLANS',
    type: 'string',
    placeholder: 'PLANS',
    help: 'plan catalogue as id:clusters:members, comma-separated; the first is the free plan',
  },
  {
    flag: 'stripe-prices',
    key: 'stripePrices',
    env: 'BINNACLE_STRIPE_PRICES',
    type: 'string',
    placeholder: 'PRICES',
    help: 'Stripe price of each paid plan as plan=price_…, comma-separated (e.g. team=price_1,business=price_2)',
  },
  {
    flag: 'stripe-webhook-tolerance',
    key: 'stripeWebhookToleranceMs',
    fileKey: 'stripeWebhookTolerance',
    env: 'BINNACLE_STRIPE_WEBHOOK_TOLERANCE',
    type: 'duration',
    range: [1000, 3_600_000],
    placeholder: 'DURATION',
    help: 'how old a webhook signature may be',
  },
];

const entries = (text: string) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

function parsePlans(text: string): Plan[] {
  const plans = entries(text).map((entry) => {
    const match = /^([a-z][a-z0-9-]{0,31}):(\d{1,7}):(\d{1,7})$/.exec(entry);
    if (!match) throw new UsageError(`billingPlans: "${entry}" is not id:clusters:members (e.g. team:20:50)`);
    return { id: match[1] as string, priceId: null, clusters: Number(match[2]), members: Number(match[3]) };
  });
  if (plans.length === 0) throw new UsageError('billingPlans: name at least one plan');
  const ids = plans.map((plan) => plan.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new UsageError(`billingPlans: plan "${twice}" is listed twice`);
  return plans;
}

/** The catalogue with each paid plan's price: every plan but the first needs one, the first takes none. */
function pricedPlans(plans: Plan[], pricesText: string): Plan[] {
  const prices = new Map<string, string>();
  for (const entry of entries(pricesText)) {
    const [plan, price] = entry.split('=');
    if (!plan || !price || !plans.some((p) => p.id === plan))
      throw new UsageError(`stripePrices: "${entry}" is not plan=price_… for a plan of billingPlans`);
    prices.set(plan, price);
  }
  return plans.map((plan, index) => {
    const priceId = prices.get(plan.id) ?? null;
    if (index === 0 && priceId)
      throw new UsageError(`stripePrices: ${plan.id} is the free plan (the first of billingPlans)`);
    if (index > 0 && !priceId)
      throw new UsageError(`stripePrices: plan ${plan.id} needs a Stripe price (${plan.id}=price_…)`);
    return { ...plan, priceId };
  });
}

/**
 * Billing is on when a Stripe secret key is given (variable or file, never a flag's value); then the webhook
 * secret and a price for every paid plan are required. Each mistake stops the hub naming the setting.
 */
export function validateBilling<T extends BillingSettings>(config: T, env: NodeJS.ProcessEnv): T {
  const secretKey =
    env[stripeSecretKeyEnv] ??
    (config.stripeSecretKeyFile ? secretFile(config.stripeSecretKeyFile, 'stripeSecretKeyFile') : undefined);
  const webhookSecret =
    env[stripeWebhookSecretEnv] ??
    (config.stripeWebhookSecretFile
      ? secretFile(config.stripeWebhookSecretFile, 'stripeWebhookSecretFile')
      : undefined);
  // The catalogue is checked even with billing off, so a typo shows before the day billing is turned on.
  const plans = parsePlans(config.billingPlans);
  if (!secretKey) {
    if (webhookSecret || config.stripePrices)
      throw new UsageError(
        `stripeSecretKey: Stripe settings are given but no secret key: set ${stripeSecretKeyEnv} or stripeSecretKeyFile`,
      );
    return { ...config, billing: undefined };
  }
  if (!webhookSecret)
    throw new UsageError(
      `stripeWebhookSecret: required with a Stripe secret key: set ${stripeWebhookSecretEnv} or stripeWebhookSecretFile`,
    );
  if (plans.length < 2)
    throw new UsageError('billingPlans: billing needs a free plan and at least one paid plan');
  return {
    ...config,
    billing: {
      secretKey,
      webhookSecret,
      apiUrl: config.stripeApiUrl,
      plans: pricedPlans(plans, config.stripePrices ?? ''),
      toleranceSeconds: Math.round(config.stripeWebhookToleranceMs / 1000),
    },
  };
}
