import { sessionCookie as namedSessionCookie } from '@binnacle/common/oidc';

/**
 * The hub's session cookie: `__Host-binnacle_session` (Secure, Path=/, no Domain) on https; plain
 * `binnacle_session` only when the hub runs on http://localhost for development, where browsers drop Secure cookies.
 */
let last: { publicUrl: string; cookie: ReturnType<typeof namedSessionCookie> } | undefined;

export function sessionCookie(publicUrl: string) {
  // Asked for on every request (a URL parsed each time showed in the tunnel's profile); the hub has one URL.
  if (last?.publicUrl !== publicUrl)
    last = { publicUrl, cookie: namedSessionCookie(publicUrl, 'binnacle_session') };
  return last.cookie;
}
