import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, badRequest } from '../server/errors.ts';
import {
  idpUnavailable,
  isIdpUnavailable,
  type LoginChecks,
  type OidcRelyingParty,
  type RelyingPartyLog,
} from './relying-party.ts';

/** SHA-256 (hex) of a secret: what a server keeps of session ids, states and binding cookies. */
export const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Whether a secret the browser sent hashes to the stored hash (compared in constant time). */
export function matchesHash(secret: string | undefined, hash: string): boolean {
  if (!secret) return false;
  const a = Buffer.from(sha256(secret));
  const b = Buffer.from(hash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A sign-in's browser cookie is named after its state, so parallel sign-ins in one browser never overwrite each other. */
export function loginCookieName(publicUrl: string, state: string): string {
  const prefix = publicUrl.startsWith('https:') ? '__Host-' : '';
  return `${prefix}binnacle_oidc_${sha256(state).slice(0, 16)}`;
}

/** Minutes a started sign-in may take at the IdP. */
export const loginTtlMs = 10 * 60_000;

/**
 * The state of an IdP callback: an IdP error there is answered in its words (401 sign_in_failed), a callback
 * without code or state is a 400.
 */
export function callbackState(query: Record<string, string | undefined>): string {
  const { state, error } = query;
  if (error) {
    throw new AppError(
      'sign_in_failed',
      `the identity provider refused the sign-in: ${error}${query.error_description ? ` (${query.error_description})` : ''}`,
    );
  }
  if (!state || !query.code) throw badRequest('the callback needs code and state');
  return state;
}

/** A pending sign-in must exist, be unexpired and belong to this browser (its binding cookie); returns it. */
export function pendingInThisBrowser<T>(
  pending: T | undefined,
  of: (pending: T) => { bindingHash: string; expiresAt: number },
  binding: string | undefined,
  now: number,
): T {
  if (!pending || of(pending).expiresAt <= now)
    throw badRequest('unknown, used or expired sign-in state; start the sign-in again');
  if (!matchesHash(binding, of(pending).bindingHash))
    throw badRequest('this sign-in was started in another browser; start it again here');
  return pending;
}

/** The code for tokens at the IdP, with the PKCE verifier and nonce the sign-in started with. */
export async function exchangeCode(
  rp: OidcRelyingParty,
  rawQuery: string,
  checks: LoginChecks,
  log: RelyingPartyLog,
): Promise<Awaited<ReturnType<OidcRelyingParty['exchange']>>> {
  try {
    return await rp.exchange(rawQuery, checks);
  } catch (failure) {
    if (isIdpUnavailable(failure)) throw idpUnavailable('token endpoint');
    log.warn({ err: failure }, 'OIDC code exchange failed');
    throw new AppError(
      'sign_in_failed',
      'the sign-in could not be completed (code, PKCE, nonce or ID token check failed); start it again',
    );
  }
}
