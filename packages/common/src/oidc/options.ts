import { echo } from '../server/errors.ts';
import { type OptionSpec, UsageError } from '../server/options.ts';

/** RFC 6749 §3.3: a scope is printable ASCII without space, `"` or `\`. */
const scope = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Comma-separated OAuth scopes (`--oidc-scopes`). */
export function checkScopes(value: string, source: string): void {
  for (const entry of value.split(',').map((part) => part.trim())) {
    if (entry !== '' && !scope.test(entry))
      throw new UsageError(`${source}: "${echo(entry)}" is not an OAuth scope (printable, no spaces)`);
  }
}

/** A claim name: anything but blank or padded (an empty value, where allowed, is taken before this check). */
export function checkClaim(value: string, source: string): void {
  if (value.trim() === '' || value.trim() !== value)
    throw new UsageError(`${source}: "${echo(value)}" is not a claim name (blank or padded)`);
}

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
    help: 'extra scopes, comma-separated; hosted IdPs need offline_access for refresh',
    defaultText: 'none',
    check: checkScopes,
  },
  {
    flag: 'oidc-groups-claim',
    key: 'oidcGroupsClaim',
    env: 'BINNACLE_OIDC_GROUPS_CLAIM',
    type: 'string',
    emptyAllowed: true,
    placeholder: 'CLAIM',
    help: 'ID-token claim with the IdP groups; "" turns groups off',
    check: checkClaim,
  },
];
