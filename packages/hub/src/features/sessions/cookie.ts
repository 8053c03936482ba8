import type { CookieSerializeOptions } from '@fastify/cookie';

/**
 * The session cookie: `__Host-binnacle_session` (Secure, Path=/, no Domain) on https; plain `binnacle_session`
 * only when the hub runs on http://localhost for development, where browsers drop Secure cookies.
 */
export function sessionCookie(publicUrl: string) {
  const secure = new URL(publicUrl).protocol === 'https:';
  const name = secure ? '__Host-binnacle_session' : 'binnacle_session';
  const base: CookieSerializeOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure };
  return {
    name,
    /** Max-Age is the remaining absolute lifetime: the session survives a browser restart, the server enforces every limit. */
    set: (expiresAt: Date, now: Date): CookieSerializeOptions => ({
      ...base,
      maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
    }),
    clear: (): CookieSerializeOptions => ({ ...base, maxAge: 0 }),
  };
}
