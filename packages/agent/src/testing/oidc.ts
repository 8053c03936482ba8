import { signInAtIdp, type TestIdp } from '@binnacle/testkit';
import type { TestAgent } from './test-agent.ts';

/** One sign-in to an agent in oidc mode over HTTP, with what a browser would have held on the way. */
export interface HttpSignIn {
  /** Where /auth/login sent the browser: the IdP's authorization endpoint with PKCE, state and nonce. */
  authorization: URL;
  /** The sign-in's browser-binding cookie, as `name=value`. */
  loginCookie: string;
  /** Where the IdP sent the browser back: the agent's callback with code and state. */
  callbackUrl: URL;
  /** The agent's answer to that callback. */
  callback: Response;
  /** The session cookie's value; empty when the callback opened no session. */
  session: string;
}

/**
 * /auth/login → the IdP, where `user` signs in (signInAtIdp) → the agent's callback. The callback is requested
 * at the agent's real port, whatever host the redirect URL names.
 */
export async function signInOverHttp(
  agent: TestAgent,
  idp: TestIdp,
  user: string,
  options: { returnTo?: string; cookieName?: string } = {},
): Promise<HttpSignIn> {
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  const login = await agent.request(`/auth/login${query}`, { redirect: 'manual' });
  if (login.status !== 302) throw new Error(`/auth/login answered ${login.status}: ${await login.text()}`);
  const authorization = new URL(String(login.headers.get('location')));
  const loginCookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const callbackUrl = new URL(await signInAtIdp(idp, authorization.toString(), user));
  const callback = await agent.request(`${callbackUrl.pathname}${callbackUrl.search}`, {
    redirect: 'manual',
    headers: { cookie: loginCookie },
  });
  const name = options.cookieName ?? 'binnacle_agent_session';
  const session = callback.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);
  return { authorization, loginCookie, callbackUrl, callback, session: session ?? '' };
}
