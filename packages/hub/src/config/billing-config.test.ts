import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@binnacle/common/server';
import { afterAll, describe, expect, it } from 'vitest';
import { type BillingSettings, billingDefaults, validateBilling } from './billing-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'binnacle-billing-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keyFile = join(dir, 'key');
writeFileSync(keyFile, 'sk_test_from_file\n');
const on = {
  BINNACLE_STRIPE_SECRET_KEY: 'sk_test_1',
  BINNACLE_STRIPE_WEBHOOK_SECRET: 'whsec_1',
};
const prices = 'team=price_t,business=price_b';

const settings = (extra: Partial<BillingSettings> = {}): BillingSettings => ({
  ...billingDefaults,
  ...extra,
});
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a UsageError');
};

describe('billing settings', () => {
  it('leave billing off without a Stripe secret key', () => {
    expect(validateBilling(settings(), {}).billing).toBeUndefined();
  });

  it('turn it on with the key, the webhook secret and a price per paid plan (the default catalogue)', () => {
    const billing = validateBilling(settings({ stripePrices: prices }), on).billing;
    expect(billing).toMatchObject({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      toleranceSeconds: 300,
    });
    expect(billing?.plans).toEqual([
      { id: 'free', priceId: null, clusters: 3, members: 5 },
      { id: 'team', priceId: 'price_t', clusters: 20, members: 50 },
      { id: 'business', priceId: 'price_b', clusters: 100, members: 500 },
    ]);
  });

  it('read the secret key from a file', () => {
    const config = settings({ stripePrices: prices, stripeSecretKeyFile: keyFile });
    const billing = validateBilling(config, { BINNACLE_STRIPE_WEBHOOK_SECRET: 'whsec_1' }).billing;
    expect(billing?.secretKey).toBe('sk_test_from_file');
  });

  it.each([
    [settings({ stripePrices: prices }), { BINNACLE_STRIPE_SECRET_KEY: 'sk' }, 'stripeWebhookSecret'],
    [settings(), on, 'stripePrices: plan team needs a Stripe price'],
    [settings({ stripePrices: `free=price_f,${prices}` }), on, 'stripePrices: free is the free plan'],
    [settings({ stripePrices: `${prices},gold=price_g` }), on, 'stripePrices: "gold=price_g"'],
    [settings({ billingPlans: 'free:3' }), {}, 'billingPlans: "free:3" is not id:clusters:members'],
    [settings({ billingPlans: 'free:1:1,free:2:2' }), {}, 'plan "free" is listed twice'],
    [
      settings({ billingPlans: 'free:1:1' }),
      on,
      'billingPlans: billing needs a free plan and at least one paid',
    ],
    [settings({ stripePrices: prices }), { BINNACLE_STRIPE_WEBHOOK_SECRET: 'w' }, 'stripeSecretKey'],
    [settings({ stripeSecretKeyFile: join(dir, 'missing') }), {}, 'stripeSecretKeyFile'],
  ])('stop the hub naming the setting (%#)', (config, env, message) => {
    expect(refusal(() => validateBilling(config, env))).toContain(message);
  });
});
