import type { OptionSpec } from '../server/options.ts';

/** The relying-party settings the hub and the agent both read, under the same flags and variables. */
export interface OidcClientFlags {
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecretFile?: string;
  /** Extra scopes, comma-separated. */
  oidcScopes: string;
  /** Claim holding the IdP groups; `""`: none. */
  oidcGroupsClaim: string;
}

/** `--oidc-issuer`, `--oidc-client-id`, `--oidc-client-secret-file`, `--oidc-scopes`, `--oidc-groups-claim`. */
export const oidcClientOptions: OptionSpec<OidcClientFlags>[] = [
  {
    flag: 'oidc-issuer',
    key: 'oidcIssuer',
    env: 'BINNACLE_OIDC_ISSUER',
    type: 'url',
    placeholder: 'URL',
    help: 'OIDC issuer URL (hub: auth.oidc.issuer, sign-in is off without it; agent: required with --auth-mode oidc)',
  },
  {
    flag: 'oidc-client-id',
    key: 'oidcClientId',
    env: 'BINNACLE_OIDC_CLIENT_ID',
    type: 'string',
    placeholder: 'ID',
    help: 'OIDC client id (auth.oidc.clientID)',
  },
  {
    flag: 'oidc-client-secret-file',
    key: 'oidcClientSecretFile',
    env: 'BINNACLE_OIDC_CLIENT_SECRET_FILE',
    type: 'path',
    placeholder: 'PATH',
    help: "file holding the client secret (a secret's client-secret key); or set BINNACLE_OIDC_CLIENT_SECRET",
  },
  {
    flag: 'oidc-scopes',
    key: 'oidcScopes',
    env: 'BINNACLE_OIDC_SCOPES',
    type: 'string',
    emptyAllowed: true,
    placeholder: 'LIST',
    help: 'extra scopes, comma-separated (default none; hosted IdPs need offline_access for refresh)',
  },
  {
    flag: 'oidc-groups-claim',
    key: 'oidcGroupsClaim',
    env: 'BINNACLE_OIDC_GROUPS_CLAIM',
    type: 'string',
    emptyAllowed: true,
    placeholder: 'CLAIM',
    help: 'ID-token claim with the IdP groups (default groups; "" turns groups off)',
  },
];
