import { errorResponses, Query, registerMcpEndpoint } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import { metadataPrefix, resourceMetadata } from '../../http/protected-resource.ts';
import { countFanOut } from '../../services/clusters/fan-out.ts';
import { fansOut, hubMcpServer } from './server.ts';

type Deps = Pick<
  HubContext,
  | 'accessCache'
  | 'clock'
  | 'config'
  | 'database'
  | 'fleetLimit'
  | 'log'
  | 'oidc'
  | 'replicas'
  | 'tunnels'
  | 'version'
>;

const Metadata = Type.Object(
  {
    resource: Type.String(),
    authorization_servers: Type.Optional(Type.Array(Type.String())),
    scopes_supported: Type.Optional(Type.Array(Type.String())),
    bearer_methods_supported: Type.Array(Type.String()),
    resource_name: Type.String(),
  },
  { description: 'RFC 9728 protected-resource metadata' },
);

/**
 * The organisation-wide `/mcp` (every cluster's tools, fanning out when no cluster is named) and `/mcp-readonly`
 * (its read tools only), and the RFC 9728 metadata of the hub's MCP resources, through which an MCP client finds
 * the IdP and runs its own OAuth flow. Each cluster's own `/c/<id>/mcp` and `/c/<id>/mcp-readonly` are its
 * agent's, reached through the tunnel like any agent route.
 */
export function mcpRoutes(app: HubApp, ctx: Deps): void {
  for (const path of ['/mcp', '/mcp-readonly'] as const)
    registerMcpEndpoint(app, {
      url: path,
      summary:
        path === '/mcp'
          ? 'MCP (Streamable HTTP, stateless) for the whole organisation: list_clusters and every cluster tool with a `cluster` argument; read tools without it fan out (30 per minute per user, shared with /api/fleet/*)'
          : "MCP for the whole organisation, read-only: as /mcp with only the tools that read, each asked of the agents' /mcp-readonly (nothing but reads reach a cluster, whatever the caller may do)",
      config: access('viewer'),
      refusalConfig: access('public'),
      async serverFor(request) {
        const principal = principalOf(request);
        const messages = Array.isArray(request.body) ? request.body : [request.body];
        for (const message of messages) {
          if (fansOut(message)) await countFanOut(ctx, principal);
        }
        return hubMcpServer(ctx, principal, path);
      },
    });
  const metadataRoute = (url: string, resourcePath: (params: { cluster_id?: string }) => string) =>
    app.get(
      url,
      {
        config: access('public'),
        schema: {
          tags: ['ai'],
          summary: 'RFC 9728 metadata of an MCP resource: the IdP issuing its access tokens',
          params: url.includes(':cluster_id')
            ? Type.Object({ cluster_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) })
            : Type.Object({}),
          querystring: Query({}),
          response: { 200: Metadata, ...errorResponses },
        },
      },
      (request) => resourceMetadata(ctx, resourcePath(request.params as { cluster_id?: string })),
    );
  for (const path of ['/mcp', '/mcp-readonly']) {
    metadataRoute(`${metadataPrefix}${path}`, () => path);
    metadataRoute(`${metadataPrefix}/c/:cluster_id${path}`, (params) => `/c/${params.cluster_id}${path}`);
  }
}
