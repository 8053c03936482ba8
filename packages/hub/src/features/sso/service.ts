import { echo, forbidden } from '@binnacle/common/server';
import { oidcRedirectUri, splitScopes } from '../../config/oidc-config.ts';
import type { HubContext } from '../../context.ts';
import { oldestOrg } from '../../db/directory.ts';
import { OutboundFailure } from '../../security/outbound.ts';
import type { Principal } from '../../security/principal.ts';
import { idpTimeoutSeconds } from '../../services/identity/oidc-client.ts';

type Deps = Pick<HubContext, 'audit' | 'breakGlass' | 'config' | 'database' | 'log' | 'outbound'>;

/** A discovery document is a few kilobytes: this leaves room for any IdP's and bounds what is read. */
const maxDiscoveryBytes = 256 * 1024;

export const oidcSecretName = 'binnacle-hub-oidc';

/** The SSO settings in force, for Settings → SSO and Organization → SSO (read-only; the chart is the source of truth). */
export async function ssoSettings(ctx: Deps, principal: Principal) {
  const { config } = ctx;
  return {
    mayGenerate: await mayGenerate(ctx, principal),
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

/** The one answer to any failed discovery check, whatever failed (ADR 0049): a caller learns nothing of the network. */
export const discoveryFailed = {
  ok: false,
  code: 'discovery_failed',
  error:
    'no OIDC discovery document could be read at this issuer (unreachable, refused, not allowed, or not a discovery document; the hub does not fetch from loopback, private or link-local addresses unless its operator allows them); the hub log says which',
} as const;

/** Whether the issuer answers OIDC discovery, so a typo shows before anyone applies the values. */
async function checkDiscovery(ctx: Deps, issuer: string) {
  let metadata: { issuer?: unknown; end_session_endpoint?: unknown };
  try {
    const document = await ctx.outbound.getJson(
      new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`),
      { timeoutMs: idpTimeoutSeconds * 1000, maxBytes: maxDiscoveryBytes },
    );
    if (typeof document !== 'object' || document === null) throw new OutboundFailure('not a JSON object');
    metadata = document;
  } catch (error) {
    ctx.log.warn({ issuer, reason: (error as Error).message }, 'SSO setup: the discovery check failed');
    return discoveryFailed;
  }
  if (metadata.issuer !== issuer)
    return {
      ok: false,
      code: 'issuer_mismatch',
      error: `the IdP calls itself ${echo(String(metadata.issuer))}, not ${issuer}`,
    };
  return { ok: true, endSessionEndpoint: Boolean(metadata.end_session_endpoint) };
}

/**
 * SSO is configured for the whole hub (its chart values), so generating those values — and making the hub
 * fetch an issuer a caller typed — is for the owners of the hub's first organization, the one the break-glass
 * admin owns (ADR 0049); an owner of an organization they created themselves gets 403.
 */
async function mayGenerate(ctx: Deps, principal: Principal): Promise<boolean> {
  return principal.role === 'owner' && principal.orgId === (await oldestOrg(ctx.database.db));
}

async function requireHubOwner(ctx: Deps, principal: Principal) {
  if (await mayGenerate(ctx, principal)) return;
  throw forbidden(
    "SSO is configured for the whole hub: only owners of the hub's first organization may generate its settings",
  );
}

/**
 * Settings → SSO: from issuer, client id and secret, the chart values and the commands to apply them. The
 * secret goes into a Kubernetes secret command only, never into the values; nothing is stored or logged.
 */
export async function ssoSetup(ctx: Deps, principal: Principal, input: SsoSetupInput, ip: string) {
  await requireHubOwner(ctx, principal);
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
    discovery: await checkDiscovery(ctx, input.issuer),
  };
}
