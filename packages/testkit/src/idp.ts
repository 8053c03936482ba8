import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';

/** How the IdP's token endpoint misbehaves, to exercise the hub's refresh error handling. */
/** What the token endpoint answers instead of tokens: busy, down, silent, or refusing the hub's client. */
export type TokenFault = 'none' | '429' | '503' | 'hang' | 'invalid_client';

export interface TestIdpOptions {
  /** The hub's public URL: its callback is the client's redirect URI. */
  hubUrl: string;
  clientId?: string;
  clientSecret?: string;
  /** ID-token lifetime in seconds (short, so expiry and refresh happen in tests). */
  idTokenTtl?: number;
  /** Issue refresh tokens (as a self-hosted IdP does without offline_access). */
  refreshTokens?: boolean;
  /** Advertise end_session_endpoint in discovery. */
  endSession?: boolean;
  /** The claim carrying groups. */
  groupsClaim?: string;
  /** The client's callback path under hubUrl (default the hub's, /api/auth/oidc/callback; an agent's is /auth/callback). */
  callbackPath?: string;
  /** The client's back-channel logout path under hubUrl (default the hub's). */
  backchannelPath?: string;
}

/**
 * A public client (PKCE, no secret) registered for MCP clients such as an AI agent: it asks for access tokens
 * for a resource of the hub (RFC 8707), which the IdP issues as JWTs with that audience and the groups claim.
 */
export const mcpTestClient = { clientId: 'mcp-test-client', redirectUri: 'http://127.0.0.1/callback' };

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  provider: Provider;
  /** Per user: the groups claim value, which tests change between sign-in and refresh. */
  groups: Map<string, unknown>;
  /** Users whose account the IdP no longer knows: their refresh is refused (invalid_grant). */
  disabled: Set<string>;
  tokenFault: TokenFault;
  /** Lifetime in seconds of the ID tokens issued from now on (tests lengthen it to stop refreshing). */
  idTokenTtl: number;
  /** Requests the token endpoint received (code exchanges and refreshes). */
  tokenRequests: number;
  /** Revokes a refresh token (and its grant) at the IdP's revocation endpoint, as an administrator would. */
  revoke(refreshToken: string): Promise<void>;
  /** A JWT signed with the IdP's own key (access tokens, or a hosted provider's session token in tests). */
  signJwt(
    claims: Record<string, unknown>,
    options?: { issuer?: string; audience?: string; typ?: string },
  ): Promise<string>;
  /** A back-channel logout token signed with the IdP's own key (the IdP would POST it to the hub). */
  signLogoutToken(claims: {
    sub?: string;
    sid?: string;
    nonce?: string;
    events?: unknown;
    jti?: string;
    audience?: string;
  }): Promise<string>;
  /** Stops listening (the IdP is down) and starts again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real OpenID Provider (oidc-provider) on loopback, configured like a self-hosted IdP: groups with full
 * paths in the ID token, refresh tokens without offline_access, PKCE required. A thin HTTP wrapper in front
 * injects token-endpoint faults.
 */
export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  const clientId = options.clientId ?? 'binnacle-hub';
  const clientSecret = options.clientSecret ?? 'hub-client-secret-for-tests';
  const groupsClaim = options.groupsClaim ?? 'groups';
  const groups = new Map<string, unknown>();
  const disabled = new Set<string>();
  let server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-idp-key', alg: 'RS256', use: 'sig' };
  const provider = quietly(
    () =>
      new Provider(issuer, {
        jwks: { keys: [signingKey as never] },
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [`${options.hubUrl}${options.callbackPath ?? '/api/auth/oidc/callback'}`],
            post_logout_redirect_uris: [options.hubUrl, `${options.hubUrl}/`],
            grant_types:
              options.refreshTokens === false
                ? ['authorization_code']
                : ['authorization_code', 'refresh_token'],
            backchannel_logout_uri: `${options.hubUrl}${options.backchannelPath ?? '/api/auth/oidc/backchannel-logout'}`,
            backchannel_logout_session_required: true,
          },
          {
            client_id: mcpTestClient.clientId,
            application_type: 'native',
            token_endpoint_auth_method: 'none',
            redirect_uris: [mcpTestClient.redirectUri],
            grant_types: ['authorization_code', 'refresh_token'],
          },
        ],
        extraTokenClaims(_ctx, token) {
          const { accountId } = token as { accountId?: string };
          if (token.kind !== 'AccessToken' || !accountId || !groups.has(accountId)) return undefined;
          return { [groupsClaim]: groups.get(accountId) };
        },
        claims: { openid: ['sub', groupsClaim], email: ['email', 'email_verified'], profile: ['name'] },
        scopes: ['openid', 'offline_access', 'email', 'profile'],
        conformIdTokenClaims: false,
        issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
        ttl: {
          IdToken: () => idp.idTokenTtl,
          AccessToken: () => idp.idTokenTtl,
          Session: 3600,
          Grant: 3600,
          Interaction: 600,
          RefreshToken: 86_400,
        },
        pkce: { required: () => true },
        features: {
          devInteractions: { enabled: true },
          backchannelLogout: { enabled: true },
          revocation: { enabled: true },
          rpInitiatedLogout: { enabled: options.endSession !== false },
          // Access tokens for the hub's resources (its MCP URLs) are JWTs for that audience; nothing else is one.
          resourceIndicators: {
            enabled: true,
            defaultResource: (_ctx, _client, oneOf) => oneOf,
            useGrantedResource: () => true,
            getResourceServerInfo(_ctx, resource) {
              if (!resource.startsWith(`${options.hubUrl}/`)) throw new errors.InvalidTarget();
              return {
                scope: 'openid email profile',
                audience: resource,
                accessTokenFormat: 'jwt',
                accessTokenTTL: idp.idTokenTtl,
                jwt: { sign: { alg: 'RS256' } },
              };
            },
          },
        },
        findAccount(_ctx, sub) {
          if (disabled.has(sub)) return undefined;
          return {
            accountId: sub,
            claims() {
              const claims: { sub: string; [claim: string]: unknown } = {
                sub,
                email: `${sub}@example.com`,
                email_verified: true,
                name: sub,
              };
              if (groups.has(sub)) claims[groupsClaim] = groups.get(sub);
              return claims;
            },
          };
        },
      }),
  );
  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    provider,
    groups,
    disabled,
    tokenFault: 'none',
    tokenRequests: 0,
    idTokenTtl: options.idTokenTtl ?? 120,
    async revoke(refreshToken) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token' }).toString(),
      });
      if (!response.ok) throw new Error(`revocation answered ${response.status}: ${await response.text()}`);
    },
    signJwt(claims, options = {}) {
      const { exp, ...rest } = claims;
      return new SignJWT(rest)
        .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid, typ: options.typ ?? 'JWT' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? clientId)
        .setIssuedAt()
        .setExpirationTime(typeof exp === 'number' ? exp : '2m')
        .setJti(randomUUID())
        .sign(privateKey);
    },
    signLogoutToken(claims) {
      const { audience, events, ...rest } = claims;
      return idp.signJwt(
        { events: events ?? { 'http://schemas.openid.net/event/backchannel-logout': {} }, ...rest },
        { audience, typ: 'logout+jwt' },
      );
    },
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
    async start() {
      server = createServer(handler);
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close: () => idp.stop(),
  };
  const callback = provider.callback();
  function handler(request: IncomingMessage, response: ServerResponse) {
    if (request.url?.startsWith('/token')) idp.tokenRequests++;
    if (request.url?.startsWith('/token') && idp.tokenFault !== 'none') {
      if (idp.tokenFault === 'hang') return; // never answers; the hub's timeout must fire
      const [status, error] =
        idp.tokenFault === 'invalid_client'
          ? [401, 'invalid_client']
          : [idp.tokenFault === '429' ? 429 : 503, 'temporarily_unavailable'];
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error }));
      return;
    }
    void callback(request, response);
  }
  server.on('request', handler);
  return idp;
}

/** oidc-provider announces its development features on the console at construction; tests know. */
function quietly<T>(build: () => T): T {
  const { warn, info } = console;
  console.warn = () => {};
  console.info = () => {};
  try {
    return build();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

/** A minimal browser against the IdP: keeps its cookies and follows its redirects by hand. */
class IdpBrowser {
  readonly #cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const headers: Record<string, string> = {
      cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = (pair as string).indexOf('=');
      this.#cookies.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      text: await response.text(),
    };
  }
}

/**
 * Walks the IdP's sign-in for `user` from an authorization URL (the hub's redirect) until the IdP redirects
 * back to the hub; returns that callback URL. The IdP's login and consent forms are submitted as a person would.
 */
export async function signInAtIdp(idp: TestIdp, authorizationUrl: string, user: string): Promise<string> {
  const browser = new IdpBrowser();
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    if (!url.startsWith(idp.issuer)) return url;
    const page = await browser.request(url);
    if (page.location) {
      url = new URL(page.location, idp.issuer).toString();
      continue;
    }
    if (page.status !== 200 || !url.includes('/interaction/'))
      throw new Error(`IdP answered ${page.status} at ${url}: ${page.text.slice(0, 300)}`);
    const form: Record<string, string> = page.text.includes('name="login"')
      ? { prompt: 'login', login: user, password: 'any' }
      : { prompt: 'consent' };
    const submitted = await browser.request(url, { method: 'POST', form });
    if (!submitted.location)
      throw new Error(
        `IdP form at ${url} did not redirect (${submitted.status}): ${submitted.text.slice(0, 300)}`,
      );
    url = new URL(submitted.location, idp.issuer).toString();
  }
  throw new Error('the IdP sign-in did not reach the hub within 12 steps');
}
