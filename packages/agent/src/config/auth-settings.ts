import { existsSync, readFileSync } from 'node:fs';
import type { BlockList } from 'node:net';
import { UsageError } from '@binnacle/common/server';
import type { AgentConfig } from './agent-config.ts';
import { proxyAddresses } from './proxy-addresses.ts';

export const oidcClientSecretEnv = 'BINNACLE_OIDC_CLIENT_SECRET';
/** The agent's callback path: `--oidc-redirect-url` must end with it. */
export const callbackPath = '/auth/callback';

export interface ProxySettings {
  mode: 'proxy';
  /** Lower-case header names, as Node gives them. */
  userHeader: string;
  groupsHeader: string;
  proxies: BlockList;
}

export interface OidcSettings {
  mode: 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  groupsClaim: string;
  usernameClaim: string;
  redirectUrl: string;
  /** The agent's base URL as the browser sees it (the redirect URL without /auth/callback). */
  publicUrl: string;
  sessionLifetimeMs: number;
}

export type AuthSettings = ProxySettings | OidcSettings;

function clientSecret(config: AgentConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (env[oidcClientSecretEnv]) return env[oidcClientSecretEnv];
  const file = config.oidcClientSecretFile;
  if (file) {
    if (!existsSync(file)) throw new UsageError(`--oidc-client-secret-file: ${file} does not exist`);
    return readFileSync(file, 'utf8').trim();
  }
  return config.oidcClientSecret;
}

function oidcSettings(config: AgentConfig, env: NodeJS.ProcessEnv): OidcSettings {
  const missing = (flag: string) => new UsageError(`--auth-mode oidc needs --${flag}`);
  if (!config.oidcIssuer) throw missing('oidc-issuer');
  if (!config.oidcClientId) throw missing('oidc-client-id');
  if (!config.oidcRedirectUrl) throw missing('oidc-redirect-url');
  const secret = clientSecret(config, env);
  if (!secret)
    throw new UsageError(
      `--auth-mode oidc needs the client secret: set ${oidcClientSecretEnv} or --oidc-client-secret-file`,
    );
  const redirect = new URL(config.oidcRedirectUrl);
  if (!redirect.pathname.endsWith(callbackPath) || redirect.search || redirect.hash)
    throw new UsageError(
      `--oidc-redirect-url: "${config.oidcRedirectUrl}" must be the agent's URL ending in ${callbackPath}`,
    );
  return {
    mode: 'oidc',
    issuer: config.oidcIssuer,
    clientId: config.oidcClientId,
    clientSecret: secret,
    scopes: config.oidcScopes
      .split(',')
      .map((scope) => scope.trim())
      .filter(Boolean),
    groupsClaim: config.oidcGroupsClaim,
    usernameClaim: config.oidcUsernameClaim,
    redirectUrl: redirect.toString(),
    publicUrl: redirect.toString().slice(0, -callbackPath.length),
    sessionLifetimeMs: config.authSessionLifetimeMs,
  };
}

/**
 * The sign-in the configuration asks for, checked at boot (a UsageError names the setting): none, trusted proxy
 * headers, or OIDC. Cloud mode has the hub sign people in, so it takes neither.
 */
export function authSettings(config: AgentConfig, env: NodeJS.ProcessEnv): AuthSettings | undefined {
  if (config.authMode === 'none') return undefined;
  if (config.cloudUrl)
    throw new UsageError(
      `--auth-mode ${config.authMode} cannot be combined with --cloud-url: in cloud mode the hub signs people in and forwards who they are`,
    );
  if (config.authMode === 'oidc') return oidcSettings(config, env);
  return {
    mode: 'proxy',
    userHeader: config.authUserHeader.toLowerCase(),
    groupsHeader: config.authGroupsHeader.toLowerCase(),
    proxies: proxyAddresses(config.authProxyAddresses ?? ''),
  };
}
