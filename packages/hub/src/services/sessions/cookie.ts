import { sessionCookie as namedSessionCookie } from '@binnacle/common/oidc';

/**
 * The hub's session cookie: `__Host-binnacle_session` (Secure, Path=/, no Domain) on https; plain
 * `binnacle_session` only when the hub runs on http://localhost for development, where browsers drop Secure cookies.
 */
export const sessionCookie = (publicUrl: string) => namedSessionCookie(publicUrl, 'binnacle_session');
