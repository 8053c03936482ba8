import { AppError } from '@binnacle/common/server';
import { identityHeader, identityKey, verifyIdentity } from '@binnacle/tunnel';
import type { FastifyRequest } from 'fastify';
import type { AgentContext, App } from '../context.ts';
import type { AccessAttributes } from '../kube/access-review.ts';
import type { Impersonation } from '../kube/client.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The person a tunneled request acts for (cloud mode); undefined for the agent's own identity. */
    caller?: Impersonation;
  }
  interface FastifyContextConfig {
    /** The route filters or impersonates per caller itself; others need cluster-wide read access. */
    callerAware?: boolean;
    /** The route acts with the agent's own identity or machine (port-forwards, the local terminal): never for tunneled callers. */
    agentOnly?: boolean;
    /** What a tunneled caller must be allowed before the route runs (checked by the identity hook). */
    callerAccess?: (request: FastifyRequest) => AccessAttributes;
  }
}

export const callerAware = { callerAware: true } as const;
export const agentOnly = { agentOnly: true } as const;

/**
 * A pod subresource route that acts as the caller (exec, logs, files, debug containers): the API server's RBAC
 * decides each impersonated call, and this review up front turns a refusal into a clear 403 before any work.
 */
export const asCallerOnPod = (verb: string, subresource: string) => ({
  callerAware: true,
  callerAccess: (request: FastifyRequest): AccessAttributes => ({
    verb,
    group: '',
    resource: 'pods',
    subresource,
    namespace: (request.params as { namespace: string }).namespace,
  }),
});

/** Whether the caller may do something; 403 naming who and what when not. Without a caller, the agent acts as itself. */
export async function requireAccess(
  ctx: AgentContext,
  caller: Impersonation | undefined,
  attributes: AccessAttributes,
): Promise<void> {
  if (!caller) return;
  if (await ctx.access.allowed(caller, attributes)) return;
  const where = attributes.namespace ? ` in namespace ${attributes.namespace}` : ' cluster-wide';
  const resource = attributes.subresource
    ? `${attributes.resource}/${attributes.subresource}`
    : attributes.resource;
  const what = attributes.group ? `${resource}.${attributes.group}` : resource;
  throw new AppError('forbidden', `${caller.user} cannot ${attributes.verb} ${what}${where}`);
}

/**
 * Cloud mode: a request carrying the hub's signed identity acts as that person (DESIGN §6.3). A header that
 * did not come through the tunnel (sent straight to the agent's port, even correctly signed) or does not
 * verify — not signed with this cluster's token, for another cluster, expired — is ignored. `system:` principals are refused. Routes that serve cluster-wide views from
 * the cache without per-caller filtering answer only GETs of callers who may list namespaces cluster-wide;
 * routes that act with the agent's own identity refuse tunneled callers.
 */
const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether a request reached this listener on one of the tunnel's own loopback connections. */
const cameThroughTunnel = (request: FastifyRequest, tunnelPorts: Set<number>) =>
  loopback.has(request.socket.remoteAddress ?? '') && tunnelPorts.has(request.socket.remotePort ?? -1);

/**
 * Where the web UI lives for this request: `/c/<cluster_id>/` when it came through the hub's tunnel (the hub
 * strips that prefix before forwarding), else `/`.
 */
export function uiBase(ctx: AgentContext, request: FastifyRequest): string {
  const clusterId = ctx.cloud?.clusterId();
  if (!ctx.cloud || !clusterId || !cameThroughTunnel(request, ctx.cloud.tunnelPorts)) return '/';
  return `/c/${encodeURIComponent(clusterId)}/`;
}

export function registerCallerIdentity(app: App, ctx: AgentContext): void {
  const cloud = ctx.cloud;
  if (!cloud) return;
  const key = identityKey(cloud.clusterToken);
  app.addHook('onRequest', async (request) => {
    const header = request.headers[identityHeader];
    delete request.headers[identityHeader];
    const clusterId = cloud.clusterId();
    if (typeof header !== 'string' || !clusterId || !cameThroughTunnel(request, cloud.tunnelPorts)) return;
    const identity = verifyIdentity(key, header, clusterId, Date.now());
    if (!identity) return;
    if ([identity.user, ...identity.groups].some((subject) => subject.startsWith('system:'))) {
      throw new AppError('forbidden', 'system: users and groups cannot be forwarded into the cluster');
    }
    request.caller = { user: identity.user, groups: identity.groups };
    if (!request.routeOptions.url) return; // no route: the 404 answer needs no access check
    const config = request.routeOptions.config;
    if (config.callerAccess) await requireAccess(ctx, request.caller, config.callerAccess(request));
    if (config.callerAware) return;
    if (config.agentOnly || request.method !== 'GET') {
      throw new AppError(
        'forbidden',
        `${request.method} ${request.routeOptions.url ?? request.url} acts with the agent's own machine and identity; it is not served through the hub`,
      );
    }
    await requireAccess(ctx, request.caller, { verb: 'list', group: '', resource: 'namespaces' });
  });
}
