import { oidcRedirectUri, splitScopes } from '../../config/oidc-config.ts';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../http/principal.ts';
import { idpTimeoutSeconds } from '../auth/oidc-client.ts';

export const oidcSecretName = 'binnacle-hub-oidc';

/** The SSO settings in force, for Settings → SSO and Organization → SSO (read-only; the chart is the source of truth). */
export function ssoSettings(ctx: HubContext) {
  const { config } = ctx;
  return {
    oidcEnabled: Boolean(config.oidcIssuer),
    issuer: config.oidcIssuer ?? null,
    clientId: config.oidcClientId ?? null,
    redirectUri: oidcRedirectUri(config.publicUrl),
    groupsClaim: config.oidcGroupsClaim,
    groupForwarding: config.groupForwarding === true,
    clusterAccess: config.oidcClusterAccess ?? 'roles',
    scopes: splitScopes(config.oidcScopes),
    useRefreshToken: config.oidcUseRefreshToken === true,
    hostedIdp: Boolean(config.hostedIdpJwksUrl),
    breakGlass: ctx.breakGlass.admin.enabled,
  };
}

export interface SsoSetupInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
  groupsClaim?: string;
  scopes?: string[];
  clusterAccess?: 'idp' | 'roles';
}

const shellQuote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/** Whether the issuer answers OIDC discovery, so a typo shows before anyone applies the values. */
async function checkDiscovery(issuer: string) {
  try {
    const response = await fetch(new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`), {
      signal: AbortSignal.timeout(idpTimeoutSeconds * 1000),
    });
    if (!response.ok) return { ok: false, error: `discovery answered ${response.status}` };
    const metadata = (await response.json()) as { issuer?: string; end_session_endpoint?: string };
    if (metadata.issuer !== issuer)
      return { ok: false, error: `the IdP calls itself ${metadata.issuer}, not ${issuer}` };
    return { ok: true, endSessionEndpoint: Boolean(metadata.end_session_endpoint) };
  } catch (error) {
    return { ok: false, error: `discovery failed: ${(error as Error).message}` };
  }
}

/**
 * Settings → SSO: from issuer, client id and secret, the chart values and the commands to apply them. The
 * secret goes into a Kubernetes secret command only, never into the values; nothing is stored or logged.
 */
export async function ssoSetup(ctx: HubContext, principal: Principal, input: SsoSetupInput, ip: string) {
  const groupsClaim = input.groupsClaim ?? 'groups';
  const clusterAccess = input.clusterAccess ?? (groupsClaim ? 'idp' : 'roles');
  const oidc = {
    issuer: input.issuer,
    clientID: input.clientId,
    clientSecretExistingSecret: oidcSecretName,
    groupsClaim,
    scopes: input.scopes ?? [],
    useRefreshToken: true,
    clusterAccess,
  };
  const valuesYaml = [
    'auth:',
    '  oidc:',
    ...Object.entries(oidc).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`),
    '',
  ].join('\n');
  await ctx.audit.act(principal, ip, 'sso.setup_generated', undefined, {
    issuer: input.issuer,
    clientId: input.clientId,
  });
  return {
    redirectUri: oidcRedirectUri(ctx.config.publicUrl),
    signOutRedirectUri: ctx.config.publicUrl,
    grantTypes: ['authorization_code', 'refresh_token'],
    values: { auth: { oidc } },
    valuesYaml,
    commands: [
      `kubectl create secret generic ${oidcSecretName} --from-literal=client-secret=${shellQuote(input.clientSecret)}`,
      'helm upgrade binnacle-hub charts/binnacle-hub --reuse-values -f sso-values.yaml',
    ],
    discovery: await checkDiscovery(input.issuer),
  };
}
