/** The attributes of a session cookie, as @fastify/cookie's setCookie takes them. */
export interface SessionCookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  maxAge: number;
}

/**
 * A session cookie named `__Host-<name>` (Secure, Path=/, no Domain) on https; plain `<name>` only when served
 * on http (local development), where browsers drop Secure cookies.
 */
export function sessionCookie(publicUrl: string, name = 'binnacle_session') {
  const secure = new URL(publicUrl).protocol === 'https:';
  const base = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  return {
    name: secure ? `__Host-${name}` : name,
    /** Max-Age is the remaining absolute lifetime: the session survives a browser restart, the server enforces every limit. */
    set: (expiresAt: Date, now: Date): SessionCookieOptions => ({
      ...base,
      maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
    }),
    clear: (): SessionCookieOptions => ({ ...base, maxAge: 0 }),
  };
}
