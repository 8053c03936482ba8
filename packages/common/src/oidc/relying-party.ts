import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { AppError } from '../server/errors.ts';

/** Seconds a relying party waits for the IdP (discovery, token endpoint) before treating it as unavailable. */
export const idpTimeoutSeconds = 5;
/** After a failed discovery, OIDC requests fail fast for this long before discovery is tried again. */
const retryDiscoveryAfterMs = 3_000;

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Extra scopes after openid, email and profile. */
  scopes: string[];
  /** The callback registered at the IdP. */
  redirectUri: string;
  /** Where the IdP sends the browser after RP-initiated logout. */
  postLogoutRedirectUri: string;
}

/** The little of a logger the relying party writes to (pino and fastify's logger fit). */
export interface RelyingPartyLog {
  warn(detail: object, message: string): void;
}

export const idpUnavailable = (what: string) =>
  new AppError('idp_unavailable', `the identity provider is unavailable (${what}); try again shortly`, {
    headers: { 'Retry-After': '5' },
  });

/** How a refresh attempt failed: the IdP refused the grant, the client is misconfigured, or the IdP is not answering. */
export type RefreshFailure = 'rejected' | 'client_misconfigured' | 'unavailable';

/** The per-sign-in secrets of the authorization-code flow: state, nonce and the PKCE (S256) verifier. */
export interface LoginChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export const newLoginChecks = (): LoginChecks => ({
  state: oidc.randomState(),
  nonce: oidc.randomNonce(),
  codeVerifier: oidc.randomPKCECodeVerifier(),
});

/**
 * An OpenID relying party (openid-client), used by the hub and by the agent's own sign-in. Discovery is lazy,
 * cached and retried, so the process boots while the IdP is down; until discovery succeeds, OIDC calls answer 503.
 */
export class OidcRelyingParty {
  readonly settings: RelyingPartySettings;
  readonly #log: RelyingPartyLog;
  #config: Promise<oidc.Configuration> | undefined;
  #failedAt = 0;
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(settings: RelyingPartySettings, log: RelyingPartyLog) {
    this.settings = settings;
    this.#log = log;
  }

  get redirectUri(): string {
    return this.settings.redirectUri;
  }

  async configuration(): Promise<oidc.Configuration> {
    if (!this.#config && Date.now() - this.#failedAt < retryDiscoveryAfterMs)
      throw idpUnavailable('discovery failed');
    this.#config ??= this.#discover();
    try {
      return await this.#config;
    } catch (error) {
      this.#config = undefined;
      this.#failedAt = Date.now();
      this.#log.warn({ err: error, issuer: this.settings.issuer }, 'OIDC discovery failed');
      throw idpUnavailable('discovery failed');
    }
  }

  async #discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const local =
      issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
    const config = await oidc.discovery(
      issuer,
      this.settings.clientId,
      this.settings.clientSecret,
      undefined,
      {
        timeout: idpTimeoutSeconds,
        // Plain http only for an IdP on loopback (development and tests).
        execute: local ? [oidc.allowInsecureRequests] : [],
      },
    );
    config.timeout = idpTimeoutSeconds;
    return config;
  }

  async authorizationUrl(checks: LoginChecks): Promise<URL> {
    const config = await this.configuration();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: ['openid', 'email', 'profile', ...this.settings.scopes].join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
  }

  /** Exchanges the code; the callback URL is rebuilt from the configured redirect URI, never from Host or X-Forwarded-*. */
  async exchange(callbackQuery: string, checks: LoginChecks) {
    const config = await this.configuration();
    return oidc.authorizationCodeGrant(config, new URL(`${this.redirectUri}?${callbackQuery}`), {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  }

  async refresh(refreshToken: string) {
    return oidc.refreshTokenGrant(await this.configuration(), refreshToken);
  }

  /**
   * docs/architecture.md §6.2.1–2: no answer, 429 or 5xx means unavailable; invalid_client / unauthorized_client is the
   * client's own misconfiguration; any other refusal (invalid_grant, or a refreshed ID token that fails its
   * checks) is a rejection.
   */
  classifyRefreshError(error: unknown): RefreshFailure {
    if (isIdpUnavailable(error)) return 'unavailable';
    if (
      error instanceof oidc.ResponseBodyError &&
      (error.error === 'invalid_client' || error.error === 'unauthorized_client')
    ) {
      return 'client_misconfigured';
    }
    return 'rejected';
  }

  /** The IdP logout URL when it advertises end_session_endpoint; undefined otherwise or while it is unreachable. */
  async endSessionUrl(idToken: string | null): Promise<string | undefined> {
    let config: oidc.Configuration;
    try {
      config = await this.configuration();
    } catch {
      return undefined;
    }
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    const parameters: Record<string, string> = {
      post_logout_redirect_uri: this.settings.postLogoutRedirectUri,
    };
    if (idToken) parameters.id_token_hint = idToken;
    return oidc.buildEndSessionUrl(config, parameters).toString();
  }

  /** Verifies a JWT the IdP signed (logout tokens; access tokens with their audience) against its published keys. */
  async verifyIdpJwt(token: string, options: { audience?: string | string[] } = {}): Promise<JWTPayload> {
    const config = await this.configuration();
    const jwksUri = config.serverMetadata().jwks_uri;
    if (!jwksUri) throw idpUnavailable('the IdP publishes no jwks_uri');
    this.#jwks ??= createRemoteJWKSet(new URL(jwksUri));
    const { payload } = await jwtVerify(token, this.#jwks, {
      issuer: config.serverMetadata().issuer,
      audience: options.audience ?? this.settings.clientId,
    });
    return payload;
  }
}

/** The IdP did not answer usefully: network failure, timeout, 429 or 5xx. */
export function isIdpUnavailable(error: unknown): boolean {
  if (error instanceof oidc.ResponseBodyError) return error.status === 429 || error.status >= 500;
  if (error instanceof oidc.ClientError) {
    if (error.code === 'OAUTH_TIMEOUT') return true;
    const status = (error.cause as { status?: number } | undefined)?.status;
    return (
      error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' &&
      status !== undefined &&
      (status === 429 || status >= 500)
    );
  }
  return (
    error instanceof TypeError ||
    (error instanceof DOMException && ['TimeoutError', 'AbortError'].includes(error.name))
  );
}
