import { AppError, type TypedApp } from '@binnacle/common/server';
import { cameThroughTunnel, identityHeader, identityKey, verifyIdentity } from '@binnacle/tunnel';
import type { FastifyRequest } from 'fastify';
import type { AccessAttributes, AccessReviewer } from '../kube/access-review.ts';
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
    /** Answered on the agent's own port in cloud mode too (the kubelet's probes); other routes only through the hub. */
    probe?: boolean;
    /** With `--auth-mode proxy|oidc`: answered without a signed-in caller (the sign-in routes themselves). */
    signInExempt?: boolean;
    /** With `--auth-mode proxy|oidc`: answered without a signed-in caller too, as the agent itself (`/api/auth/me`). */
    signInOptional?: boolean;
  }
}

/** Cloud mode: the hub this agent dials and what its tunnel tells it. */
export interface CloudLink {
  hubUrl: string;
  clusterToken: string;
  /** The cluster id the hub gave this agent, once the tunnel is up. */
  clusterId: () => string | undefined;
}

/** What the caller checks read of the agent: its access reviews and, in cloud mode, its hub link. */
export interface CallerChecks {
  readonly access: AccessReviewer;
  cloud?: CloudLink;
}

export const callerAware = { callerAware: true } as const;
export const agentOnly = { agentOnly: true } as const;
export const probe = { probe: true } as const;
export const signInExempt = { signInExempt: true } as const;

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
  ctx: Pick<CallerChecks, 'access'>,
  caller: Impersonation | undefined,
  attributes: AccessAttributes,
): Promise<void> {
  if (!caller) return;
  if (await ctx.access.allowed(caller, attributes)) return;
  const where = attributes.namespace ? ` in namespace ${attributes.namespace}` : ' cluster-wide';
  const resource = attributes.subresource
    ? `${attributes.resource}/${attributes.subresource}`
    : attributes.resource;
  const what = `${attributes.group ? `${resource}.${attributes.group}` : resource}${attributes.name ? ` ${attributes.name}` : ''}`;
  throw new AppError(
    'forbidden',
    `${caller.user} cannot ${attributes.verb} ${what}${where}${groupsOf(caller)}`,
  );
}

/**
 * The groups of a refused caller, after the sentence: a binding may name the user or any of them, so a 403 says
 * both (through the hub, `binnacle:role:<role>` and the IdP groups).
 */
export const groupsOf = (caller: Impersonation): string =>
  ` (groups: ${caller.groups.length > 0 ? caller.groups.join(', ') : 'none'})`;

/** Whether the hub's tunnel handed this request over (ADR 0111): the object, never anything the caller sent. */
const throughTunnel = (request: FastifyRequest) => cameThroughTunnel(request.raw);

/**
 * Cloud mode: the agent's own port is no way in. Whatever reaches it directly — any pod in the cluster, a
 * port-forward — would act with the agent's service account and bypass the hub, its roles and the caller's
 * RBAC, so it gets 401 `direct_access_refused` (WebSocket upgrades, streams, pages and unknown paths alike),
 * except the probe routes. Decided by whether the tunnel handed the request over, never by anything the caller
 * sends (ADR 0017, ADR 0111).
 */
export function refuseDirectCallers(app: TypedApp, ctx: Pick<CallerChecks, 'cloud'>): void {
  const cloud = ctx.cloud;
  if (!cloud) return;
  const message = `this agent is in cloud mode: reach it through its hub, ${new URL(cloud.hubUrl).origin}/c/<cluster_id>/; its own port answers only /api/health`;
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config.probe || throughTunnel(request)) return done();
    done(new AppError('direct_access_refused', message));
  });
}

/**
 * Where the web UI lives for this request: `/c/<cluster_id>/` when it came through the hub's tunnel (the hub
 * strips that prefix before forwarding), else `/`.
 */
export function uiBase(ctx: Pick<CallerChecks, 'cloud'>, request: FastifyRequest): string {
  const clusterId = ctx.cloud?.clusterId();
  if (!ctx.cloud || !clusterId || !throughTunnel(request)) return '/';
  return `/c/${encodeURIComponent(clusterId)}/`;
}

/**
 * Cloud mode: a request carrying the hub's signed identity acts as that person (docs/architecture.md §6.3). A header that
 * did not come through the tunnel or does not verify — not signed with this cluster's token, for another
 * cluster, expired — is ignored. `system:` principals are refused. Routes that serve cluster-wide views from
 * the cache without per-caller filtering answer only GETs of callers who may list namespaces cluster-wide;
 * routes that act with the agent's own identity refuse tunneled callers.
 */
export function registerCallerIdentity(app: TypedApp, ctx: CallerChecks): void {
  const cloud = ctx.cloud;
  if (!cloud) return;
  const key = identityKey(cloud.clusterToken);
  app.addHook('onRequest', async (request) => {
    const header = request.headers[identityHeader];
    delete request.headers[identityHeader];
    const clusterId = cloud.clusterId();
    if (typeof header !== 'string' || !clusterId || !throughTunnel(request)) return;
    const identity = verifyIdentity(key, header, clusterId, Date.now());
    if (!identity) return;
    refuseSystemIdentity(identity, 'system: users and groups cannot be forwarded into the cluster');
    request.caller = { user: identity.user, groups: identity.groups };
    await authorizeCaller(ctx, request, 'it is not served through the hub');
  });
}

/** `system:` principals (the cluster's own components) are never impersonated for a person: 403. */
export function refuseSystemIdentity(identity: Impersonation, message: string): void {
  if ([identity.user, ...identity.groups].some((subject) => subject.startsWith('system:')))
    throw new AppError('forbidden', message);
}

/**
 * What a caller (tunneled, or signed in to the agent itself) may reach: a route's declared access is reviewed
 * first; routes that serve cluster-wide views from the cache without per-caller filtering answer only GETs of
 * callers who may list namespaces cluster-wide; routes that act with the agent's own identity refuse callers.
 */
export async function authorizeCaller(
  ctx: Pick<CallerChecks, 'access'>,
  request: FastifyRequest,
  refusal: string,
): Promise<void> {
  if (!request.caller || !request.routeOptions.url) return; // no route: the 404 answer needs no access check
  const config = request.routeOptions.config;
  if (config.callerAccess) await requireAccess(ctx, request.caller, config.callerAccess(request));
  if (config.callerAware) return;
  if (config.agentOnly || request.method !== 'GET') {
    throw new AppError(
      'forbidden',
      `${request.method} ${request.routeOptions.url ?? request.url} acts with the agent's own machine and identity; ${refusal}`,
    );
  }
  await requireAccess(ctx, request.caller, { verb: 'list', group: '', resource: 'namespaces' });
}
