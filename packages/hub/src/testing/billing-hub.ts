import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StripeMock } from '@binnacle/testkit';
import { Stripe } from 'stripe';
import type { HubConfig } from '../config/hub-config.ts';
import { startTestHub, type TestHub } from './test-hub.ts';

export const testWebhookSecret = 'whsec_binnacle_test_secret';
export const testPrices = { team: 'price_team_test', business: 'price_business_test' };

export interface BillingTestHub extends TestHub {
  /** A Stripe client of stripe-mock (fixtures for event payloads, signing helpers). */
  stripe: Stripe;
}

/**
 * A test hub with billing on against stripe-mock: the Stripe secrets come from files, as a deployment mounts
 * them; the catalogue is small so limits are reached in a few calls (free: 2 clusters, 3 members).
 */
export async function startBillingTestHub(
  mock: StripeMock,
  config: Partial<HubConfig> = {},
): Promise<BillingTestHub> {
  const secrets = await mkdtemp(join(tmpdir(), 'binnacle-stripe-secrets-'));
  await writeFile(join(secrets, 'key'), `${mock.secretKey}\n`);
  await writeFile(join(secrets, 'webhook'), `${testWebhookSecret}\n`);
  const t = await startTestHub({
    config: {
      stripeSecretKeyFile: join(secrets, 'key'),
      stripeWebhookSecretFile: join(secrets, 'webhook'),
      stripeApiUrl: mock.url,
      billingPlans: 'free:2:3,team:5:10,business:50:100',
      stripePrices: `team=${testPrices.team},business=${testPrices.business}`,
      ...config,
    },
  });
  const url = new URL(mock.url);
  const stripe = new Stripe(mock.secretKey, {
    host: url.hostname,
    port: url.port,
    protocol: 'http',
    telemetry: false,
  });
  return {
    ...t,
    stripe,
    async close() {
      await t.close();
      await rm(secrets, { recursive: true, force: true });
    },
  };
}
