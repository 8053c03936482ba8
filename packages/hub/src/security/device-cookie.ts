import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import { sameSecret } from './tokens.ts';

/** How long a browser that signed in stays a known device of the account. */
export const deviceLifetimeMs = 90 * 24 * 3_600_000;

/**
 * OWASP's device cookie for the break-glass sign-in (ADR 0048): a browser that signed in successfully gets
 * `nonce.issuedAt.mac`, an HMAC under a key derived from the hub key that binds it to the account (which the
 * cookie does not show). Presented with a sign-in for that account within its lifetime, it marks the attempt
 * as coming from a known device: exempt from the account-wide delay, counted on its own instead.
 */
export class DeviceCookies {
  readonly name: string;
  readonly #key: Buffer;
  readonly #clock: Clock;
  readonly #secure: boolean;

  constructor(secretKey: Buffer, clock: Clock, publicUrl: string) {
    this.#key = createHmac('sha256', secretKey).update('binnacle break-glass device cookies').digest();
    this.#clock = clock;
    this.#secure = new URL(publicUrl).protocol === 'https:';
    this.name = this.#secure ? '__Secure-binnacle_device' : 'binnacle_device';
  }

  /** A new cookie for the account, and how to set it: sent only to the break-glass sign-in. */
  issue(account: string) {
    const nonce = randomBytes(16).toString('base64url');
    const issuedAt = String(Math.floor(this.#clock.now().getTime() / 1000));
    return {
      value: `${nonce}.${issuedAt}.${this.#mac(account, nonce, issuedAt)}`,
      options: {
        path: '/api/auth/break-glass',
        httpOnly: true,
        sameSite: 'strict' as const,
        secure: this.#secure,
        maxAge: deviceLifetimeMs / 1000,
      },
    };
  }

  /** The device's id (its nonce) when `value` is a cookie this hub issued for `account` and it is not too old. */
  verify(value: string | undefined, account: string): string | undefined {
    const [nonce, issuedAt, mac, ...extra] = (value ?? '').split('.');
    if (!nonce || !issuedAt || !mac || extra.length > 0 || !/^\d{1,12}$/.test(issuedAt)) return undefined;
    const expected = Buffer.from(this.#mac(account, nonce, issuedAt), 'base64url');
    if (!sameSecret(Buffer.from(mac, 'base64url'), expected)) return undefined;
    const age = this.#clock.now().getTime() - Number(issuedAt) * 1000;
    return age >= 0 && age < deviceLifetimeMs ? nonce : undefined;
  }

  #mac(account: string, nonce: string, issuedAt: string): string {
    return createHmac('sha256', this.#key).update(`${account}\n${nonce}\n${issuedAt}`).digest('base64url');
  }
}
