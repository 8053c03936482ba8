import { AppError } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import { Stripe } from 'stripe';
import type { BillingConfig } from '../../config/billing-config.ts';

/** The Stripe client: api.stripe.com, or the configured base URL (stripe-mock in tests). No telemetry. */
export function stripeClient(config: BillingConfig): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const protocol = api?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
    appInfo: { name: 'binnacle-hub' },
    ...(api ? { host: api.hostname, port: api.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
  });
}

/**
 * A Stripe call whose failure becomes a 502 `payment_provider_error`. The log gets Stripe's error type, code
 * and request id (Stripe masks keys in its messages); the answer says only what failed.
 */
export async function callStripe<T>(
  log: FastifyBaseLogger,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const failure = error as Partial<InstanceType<typeof Stripe.errors.StripeError>>;
    log.warn(
      {
        stripe: {
          type: failure.type,
          code: failure.code,
          status: failure.statusCode,
          requestId: failure.requestId,
          message: failure.message,
        },
      },
      `Stripe: ${what} failed`,
    );
    throw new AppError('payment_provider_error', `Stripe could not ${what}; retry later`, { cause: error });
  }
}
