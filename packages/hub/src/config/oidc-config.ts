import { oidcClientOptions } from '@binnacle/common/oidc';
import { type OptionSpec, UsageError } from '@binnacle/common/server';
import type { Role } from '../security/roles.ts';
import { secretFile } from './secret-key.ts';

/** The spec's OIDC settings (`auth.oidc.*` in the chart), as the hub reads them. */
export interface OidcSettings {
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecret?: string;
  oidcClientSecretFile?: string;
  /** Role of users who join after the first; `member` by default. */
  oidcDefaultRole: Role;
  /** Extra scopes, comma-separated (e.g. `offline_access` for hosted IdPs, `groups` for a mapper on an optional scope). */
  oidcScopes: string;
  /** Claim holding the IdP groups; `""` turns group forwarding off. */
  oidcGroupsClaim: string;
  oidcUseRefreshToken: 'true' | 'false' | boolean;
  /** How clusters installed from the connect page grant access: `idp` (bindings to IdP groups only) or `roles`. */
  oidcClusterAccess?: 'idp' | 'roles';
  /** The hosted identity provider: its session cookie is a JWT signed by keys published here. */
  hostedIdpJwksUrl?: string;
  hostedIdpIssuer?: string;
  hostedIdpCookie: string;
  /** Derived at boot: IdP groups are forwarded (a groups claim is set and no hosted IdP is configured). */
  groupForwarding?: boolean;
}

export const oidcDefaults: OidcSettings = {
  oidcDefaultRole: 'member',
  oidcScopes: '',
  oidcGroupsClaim: 'groups',
  oidcUseRefreshToken: 'true',
  hostedIdpCookie: '__session',
};

export const oidcOptions: OptionSpec<OidcSettings>[] = [
  ...oidcClientOptions,
  {
    flag: 'oidc-default-role',
    key: 'oidcDefaultRole',
    env: 'BINNACLE_OIDC_DEFAULT_ROLE',
    type: 'enum',
    values: ['owner', 'member', 'viewer'],
    placeholder: 'ROLE',
    help: 'role of users who join after the first',
  },
  {
    flag: 'oidc-use-refresh-token',
    key: 'oidcUseRefreshToken',
    env: 'BINNACLE_OIDC_USE_REFRESH_TOKEN',
    type: 'enum',
    values: ['true', 'false'],
    placeholder: 'BOOL',
    help: 'refresh ID tokens with the refresh token',
  },
  {
    flag: 'oidc-cluster-access',
    key: 'oidcClusterAccess',
    env: 'BINNACLE_OIDC_CLUSTER_ACCESS',
    type: 'enum',
    values: ['idp', 'roles'],
    placeholder: 'MODE',
    help: 'access mode of clusters installed from the connect page',
    defaultText: 'idp while group forwarding is on, else roles',
  },
  {
    flag: 'hosted-idp-jwks-url',
    key: 'hostedIdpJwksUrl',
    env: 'BINNACLE_HOSTED_IDP_JWKS_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'JWKS of the hosted identity provider whose session cookie the hub also accepts',
  },
  {
    flag: 'hosted-idp-issuer',
    key: 'hostedIdpIssuer',
    env: 'BINNACLE_HOSTED_IDP_ISSUER',
    type: 'string',
    placeholder: 'ISS',
    help: 'issuer (iss) of the hosted identity provider session tokens',
  },
  {
    flag: 'hosted-idp-cookie',
    key: 'hostedIdpCookie',
    env: 'BINNACLE_HOSTED_IDP_COOKIE',
    type: 'string',
    placeholder: 'NAME',
    help: 'name of the hosted identity provider session cookie',
  },
];

export const oidcClientSecretEnv = 'BINNACLE_OIDC_CLIENT_SECRET';

/** The OIDC part of the boot checks; returns the settings with the secret resolved and the defaults applied. */
export function validateOidc<T extends OidcSettings>(config: T, env: NodeJS.ProcessEnv): T {
  const hosted = Boolean(config.hostedIdpJwksUrl);
  if (hosted && !config.hostedIdpIssuer)
    throw new UsageError('hostedIdpIssuer: required with hostedIdpJwksUrl');
  // With the hosted IdP also configured, OIDC-session groups are not forwarded (spec: Group forwarding 8).
  const forwarding = config.oidcGroupsClaim !== '' && !hosted;
  const clusterAccess = config.oidcClusterAccess ?? (config.oidcIssuer && forwarding ? 'idp' : 'roles');
  const useRefreshToken = config.oidcUseRefreshToken === true || config.oidcUseRefreshToken === 'true';
  if (clusterAccess === 'idp' && hosted) {
    throw new UsageError(
      'oidcClusterAccess: "idp" needs group forwarding, which cannot work while the hosted identity provider (hostedIdpJwksUrl) is configured',
    );
  }
  if (clusterAccess === 'idp' && !config.oidcIssuer) {
    throw new UsageError(
      'oidcClusterAccess: "idp" needs oidcIssuer (cluster access by IdP groups needs OIDC sign-in)',
    );
  }
  if (clusterAccess === 'idp' && !forwarding) {
    throw new UsageError('oidcClusterAccess: "idp" needs group forwarding, but oidcGroupsClaim is ""');
  }
  const derived = {
    oidcClusterAccess: clusterAccess,
    oidcUseRefreshToken: useRefreshToken,
    groupForwarding: forwarding && Boolean(config.oidcIssuer),
  };
  if (!config.oidcIssuer) return { ...config, ...derived };
  if (!config.oidcClientId) throw new UsageError('oidcClientId: required with oidcIssuer');
  const fromFile = config.oidcClientSecretFile;
  const secret =
    env[oidcClientSecretEnv] ??
    (fromFile ? secretFile(fromFile, 'oidcClientSecretFile') : undefined) ??
    config.oidcClientSecret;
  if (!secret)
    throw new UsageError(
      `oidcClientSecret: required with oidcIssuer: set ${oidcClientSecretEnv} or oidcClientSecretFile`,
    );
  return { ...config, ...derived, oidcClientSecret: secret };
}

/** Where the IdP sends people back after sign-in: register exactly this at the IdP. */
export const oidcRedirectUri = (publicUrl: string) => `${publicUrl}/api/auth/oidc/callback`;

/** The `oidcScopes` setting (comma-separated) as a list. */
export const splitScopes = (scopes: string) =>
  scopes
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
