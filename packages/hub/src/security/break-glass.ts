import { createHmac } from 'node:crypto';
import { sameSecret } from './tokens.ts';

/**
 * The break-glass admin: one e-mail and password from configuration. The password is never stored; what is
 * kept is its version, HMAC(key, email ‖ 0 ‖ password), which every break-glass session records. A restart
 * with a new password yields a new version, and sessions carrying the old one end.
 */
export class BreakGlass {
  readonly email: string | undefined;
  readonly version: string | undefined;
  readonly #key: Buffer;

  constructor(email: string | undefined, password: string | undefined, key: Buffer) {
    this.#key = key;
    this.email = email?.toLowerCase();
    this.version = this.email && password ? this.#versionOf(this.email, password) : undefined;
  }

  get enabled(): boolean {
    return this.version !== undefined;
  }

  /** Timing-safe: the candidate is HMACed and compared whole, so a wrong e-mail and a wrong password look alike. */
  verify(email: string, password: string): boolean {
    if (!this.version) return false;
    const candidate = Buffer.from(this.#versionOf(email.trim().toLowerCase(), password), 'hex');
    return sameSecret(candidate, Buffer.from(this.version, 'hex'));
  }

  #versionOf(email: string, password: string): string {
    return createHmac('sha256', this.#key).update(email).update('\0').update(password).digest('hex');
  }
}
