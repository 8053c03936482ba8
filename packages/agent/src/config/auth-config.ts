import { checkClaim, oidcClientOptions } from '@binnacle/common/oidc';
import { Duration, type OptionSpec } from '@binnacle/common/server';
import { Type } from 'typebox';
import { settingChecks } from './setting-checks.ts';

export type AuthMode = 'none' | 'proxy' | 'oidc';

/** The agent's own sign-in (`--auth-mode`): trusted proxy headers, or OIDC with server-side sessions. */
export interface AuthConfig {
  authMode: AuthMode;
  /** Proxy mode: the header naming the user, and the one listing its groups (comma-separated). */
  authUserHeader: string;
  authGroupsHeader: string;
  /** Proxy mode: the addresses and CIDRs (comma-separated) whose identity headers are believed. */
  authProxyAddresses?: string;
  oidcIssuer?: string;
  oidcClientId?: string;
  /** Never from a flag or the config file: BINNACLE_OIDC_CLIENT_SECRET or --oidc-client-secret-file. */
  oidcClientSecret?: string;
  oidcClientSecretFile?: string;
  /** Extra scopes, comma-separated. */
  oidcScopes: string;
  /** ID-token claim with the groups to impersonate; `""`: none. */
  oidcGroupsClaim: string;
  /** ID-token claim that names the Kubernetes user. */
  oidcUsernameClaim: string;
  /** The callback URL registered at the IdP, ending in /auth/callback. */
  oidcRedirectUrl?: string;
  /** Absolute lifetime of a sign-in session (milliseconds). */
  authSessionLifetimeMs: number;
}

export const authDefaults = {
  authMode: 'none',
  authUserHeader: 'X-Forwarded-User',
  authGroupsHeader: 'X-Forwarded-Groups',
  oidcScopes: '',
  oidcGroupsClaim: 'groups',
  oidcUsernameClaim: 'email',
  authSessionLifetimeMs: 8 * 3_600_000,
} satisfies Partial<AuthConfig>;

/** The config-file fields of the auth settings (the client secret never goes there). */
export const AuthConfigFields = {
  authMode: Type.Optional(
    Type.Enum(['none', 'proxy', 'oidc'], {
      description: 'Who may use the agent: everyone, or signed-in users',
    }),
  ),
  authUserHeader: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  authGroupsHeader: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  authProxyAddresses: Type.Optional(Type.String({ description: 'Trusted proxy addresses and CIDRs' })),
  oidcIssuer: Type.Optional(Type.String({ pattern: '^https?://' })),
  oidcClientId: Type.Optional(Type.String({ minLength: 1 })),
  oidcClientSecretFile: Type.Optional(Type.String({ minLength: 1 })),
  oidcScopes: Type.Optional(Type.String()),
  oidcGroupsClaim: Type.Optional(Type.String()),
  oidcUsernameClaim: Type.Optional(Type.String({ minLength: 1 })),
  oidcRedirectUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
  authSessionLifetime: Type.Optional(Duration({ description: 'Lifetime of a sign-in session, e.g. 8h' })),
};

/** The flags of the agent's sign-in; docs/agent-auth.md explains each. */
export const authOptions: OptionSpec<AuthConfig>[] = [
  {
    flag: 'auth-mode',
    key: 'authMode',
    env: 'BINNACLE_AUTH_MODE',
    type: 'enum',
    values: ['none', 'proxy', 'oidc'],
    placeholder: 'none|proxy|oidc',
    help: 'sign-in: none, proxy (trusted identity headers) or oidc; not with --cloud-url',
  },
  {
    flag: 'auth-user-header',
    key: 'authUserHeader',
    env: 'BINNACLE_AUTH_USER_HEADER',
    type: 'string',
    placeholder: 'NAME',
    help: 'proxy mode: header with the user name',
    check: settingChecks.headerName,
  },
  {
    flag: 'auth-groups-header',
    key: 'authGroupsHeader',
    env: 'BINNACLE_AUTH_GROUPS_HEADER',
    type: 'string',
    placeholder: 'NAME',
    help: 'proxy mode: header with the groups, comma-separated',
    check: settingChecks.headerName,
  },
  {
    flag: 'auth-proxy-addresses',
    key: 'authProxyAddresses',
    env: 'BINNACLE_AUTH_PROXY_ADDRESSES',
    type: 'string',
    placeholder: 'IP|CIDR,…',
    help: 'proxy mode (required): the proxies whose identity headers are believed',
    check: settingChecks.proxyAddresses,
  },
  ...oidcClientOptions,
  {
    flag: 'oidc-username-claim',
    key: 'oidcUsernameClaim',
    env: 'BINNACLE_OIDC_USERNAME_CLAIM',
    type: 'string',
    placeholder: 'CLAIM',
    help: 'oidc mode: ID-token claim naming the Kubernetes user',
    check: checkClaim,
  },
  {
    flag: 'oidc-redirect-url',
    key: 'oidcRedirectUrl',
    env: 'BINNACLE_OIDC_REDIRECT_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'oidc mode (required): the callback registered at the IdP, https://<agent>/auth/callback',
  },
  {
    flag: 'auth-session-lifetime',
    key: 'authSessionLifetimeMs',
    fileKey: 'authSessionLifetime',
    env: 'BINNACLE_AUTH_SESSION_LIFETIME',
    type: 'duration',
    range: [5 * 60_000, 168 * 3_600_000],
    placeholder: 'DURATION',
    help: 'oidc mode: how long a sign-in lasts, 5m to 168h',
  },
];
