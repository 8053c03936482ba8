import { AppError } from '@binnacle/common/server';
import type { OidcClient } from '../services/identity/oidc-client.ts';

/** RFC 9728's well-known prefix: a resource's metadata lives at this prefix followed by the resource's path. */
export const metadataPrefix = '/.well-known/oauth-protected-resource';

/**
 * `/mcp` (the organisation-wide server) or `/c/<cluster_id>/mcp` (one cluster's), each also read-only
 * (`…/mcp-readonly`, ADR 0115): the hub's MCP resources.
 */
const mcpResourcePath = /^(\/mcp(?:-readonly)?|\/c\/[^/?#]+\/mcp(?:-readonly)?)\/?(?:[?#]|$)/;

/** The MCP resource a request path belongs to, if any: `/mcp` or `/c/<id>/mcp` (or read-only), without query or slash. */
export function mcpResourceOf(url: string): string | undefined {
  return mcpResourcePath.exec(url)?.[1];
}

/**
 * The audiences an IdP access token may carry on a request to `url` (docs/architecture.md §6.2.8): the organisation-wide MCP
 * resource everywhere, and another MCP resource (a cluster's, a read-only one) on its own path only: a token for
 * a read-only endpoint opens nothing else.
 */
export function acceptedAudiences(publicUrl: string, url: string): string[] {
  const resource = mcpResourceOf(url);
  const audiences = [`${publicUrl}/mcp`];
  if (resource && resource !== '/mcp') audiences.push(`${publicUrl}${resource}`);
  return audiences;
}

/**
 * RFC 9728 metadata for one MCP resource of the hub: the IdP that issues its access tokens (when OIDC is
 * configured; without it MCP clients use a PAT) and how to present them.
 */
export function resourceMetadata(
  ctx: { config: { publicUrl: string }; oidc?: OidcClient },
  resourcePath: string,
) {
  return {
    resource: `${ctx.config.publicUrl}${resourcePath}`,
    ...(ctx.oidc
      ? {
          authorization_servers: [ctx.oidc.settings.issuer],
          scopes_supported: ['openid', 'email', 'profile', ...ctx.oidc.settings.scopes],
        }
      : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Binnacle hub (MCP)',
  };
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/**
 * A 401 with its RFC 6750 / RFC 9728 challenge: where the resource's metadata is (the MCP resource the path
 * belongs to, else the organisation-wide one), and `invalid_token` when a bearer token was offered and refused.
 */
export function withChallenge(
  error: AppError,
  publicUrl: string,
  url: string,
  offeredBearer: boolean,
): AppError {
  const resource = mcpResourceOf(url) ?? '/mcp';
  const parts = [`resource_metadata=${quoted(`${publicUrl}${metadataPrefix}${resource}`)}`];
  if (offeredBearer) parts.push('error="invalid_token"', `error_description=${quoted(error.message)}`);
  return new AppError(error.code, error.message, {
    headers: { ...error.headers, 'WWW-Authenticate': `Bearer ${parts.join(', ')}` },
    cause: error,
  });
}
