/**
 * Where a sign-in lands that was not sent from a page: your start page (your default cluster, else the list).
 * Only a path on this hub: an absolute URL here would send a fresh session to someone else's site. Browsers read
 * `//host` and `/\host` alike as another host.
 */
export const safeReturn = (returnTo?: string) =>
  returnTo && /^\/(?![/\\])/.test(returnTo) ? returnTo : '/start';
