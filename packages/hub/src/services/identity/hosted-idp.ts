import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

/**
 * The hosted identity provider's session cookie: a JWT its service signs, checked against its published keys
 * (signature, issuer, expiry). The hub keeps no session row for it; the provider owns that session.
 */
export class HostedIdp {
  readonly cookie: string;
  readonly #issuer: string;
  readonly #keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(settings: { jwksUrl: string; issuer: string; cookie: string }) {
    this.cookie = settings.cookie;
    this.#issuer = settings.issuer;
    this.#keys = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: 5000 });
  }

  /** The verified claims, or undefined for a token that does not check out. */
  async verify(token: string): Promise<(JWTPayload & { sub: string }) | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#keys, {
        issuer: this.#issuer,
        requiredClaims: ['sub', 'exp'],
      });
      return payload as JWTPayload & { sub: string };
    } catch {
      return undefined;
    }
  }
}
