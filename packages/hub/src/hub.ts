import type { FastifyBaseLogger } from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import type { HubConfig } from './config/hub-config.ts';
import { networksOf, proxyTrustOf } from './config/network-config.ts';
import { splitScopes } from './config/oidc-config.ts';
import { loadSecretKey } from './config/secret-key.ts';
import { fleetRateLimit, type HubApp, type HubContext } from './context.ts';
import { countOf } from './db/count.ts';
import { openDatabase } from './db/database.ts';
import { BreakGlass } from './security/break-glass.ts';
import { type Clock, systemClock } from './security/clock.ts';
import { DeviceCookies } from './security/device-cookie.ts';
import { GuardedFetcher } from './security/outbound.ts';
import { Sealer } from './security/sealed.ts';
import { SignInThrottle } from './security/sign-in-throttle.ts';
import { SlidingWindowLimit } from './security/sliding-window.ts';
import { buildHubServer } from './server.ts';
import { AccessCache } from './services/access/access-cache.ts';
import { Changes } from './services/access/changes.ts';
import { AuditLog } from './services/audit/audit-log.ts';
import { Billing } from './services/billing/service.ts';
import { HostedIdp } from './services/identity/hosted-idp.ts';
import { OidcClient } from './services/identity/oidc-client.ts';
import { PasswordInForce } from './services/identity/password-in-force.ts';
import { createMetrics } from './services/metrics/registry.ts';
import { joinReplicas, leaveReplicas, listenForPeers } from './services/replicas/replicas.ts';
import { SessionRefresher } from './services/sessions/refresh.ts';
import { SessionStore } from './services/sessions/store.ts';
import { LiveStreams } from './services/tunnels/live-streams.ts';
import { TunnelRegistry } from './services/tunnels/registry.ts';

export const hubVersion = packageJson.version;
const sweepEveryMs = 15 * 60_000;
const closeGraceMs = 5_000;

export interface Hub {
  ctx: HubContext;
  app: HubApp;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Wires one hub from a validated configuration: database (migrated), key, sessions, break-glass admin and
 * the HTTP app. The CLI and the tests build hubs here, so tests run what users run.
 */
export async function createHub(
  config: HubConfig,
  options: { log: FastifyBaseLogger; clock?: Clock },
): Promise<Hub> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  const admin = new BreakGlass(config.breakGlassEmail, config.breakGlassPassword, secretKey);
  const changes = new Changes();
  const accessCache = new AccessCache(clock);
  changes.onChange(() => accessCache.clear());
  const inForce = new PasswordInForce(admin.version ?? null, database.db, clock, {
    cache: accessCache,
    changes,
  });
  const sessions = new SessionStore(
    database.db,
    clock,
    { lifetimeMs: config.sessionLifetimeMs, maxInactiveMs: config.maxInactiveMs },
    inForce,
    new Sealer(secretKey, 'session refresh tokens'),
    { cache: accessCache, changes },
  );
  const countClusters = async () => {
    const row = await countOf(database.db.selectFrom('clusters'));
    return row;
  };
  const oidc = config.oidcIssuer
    ? new OidcClient(
        {
          issuer: config.oidcIssuer,
          clientId: config.oidcClientId as string,
          clientSecret: config.oidcClientSecret as string,
          scopes: splitScopes(config.oidcScopes),
          publicUrl: config.publicUrl,
        },
        options.log,
      )
    : undefined;
  const warned = new Set<string>();
  const ctx: HubContext = {
    version: hubVersion,
    config,
    database,
    clock,
    secretKey,
    sessions,
    breakGlass: {
      admin,
      inForce,
      throttle: new SignInThrottle(clock),
      devices: new DeviceCookies(secretKey, clock, config.publicUrl),
    },
    fleetLimit: new SlidingWindowLimit(clock, fleetRateLimit),
    audit: new AuditLog(database.db, clock),
    proxyTrust: proxyTrustOf(config),
    outbound: new GuardedFetcher(networksOf(config.outboundAllowedNetworks, 'outboundAllowedNetworks')),
    metrics: createMetrics({ activeSessions: () => sessions.countActive(), clusters: countClusters }),
    log: options.log,
    oidc,
    refresher: oidc
      ? new SessionRefresher({
          sessions,
          client: oidc,
          clock,
          groupsClaim: config.groupForwarding ? config.oidcGroupsClaim : '',
          log: options.log,
        })
      : undefined,
    hosted:
      config.hostedIdpJwksUrl && config.hostedIdpIssuer
        ? new HostedIdp({
            jwksUrl: config.hostedIdpJwksUrl,
            issuer: config.hostedIdpIssuer,
            cookie: config.hostedIdpCookie,
          })
        : undefined,
    billing: config.billing
      ? new Billing(config.billing, {
          db: database.db,
          clock,
          log: options.log,
          publicUrl: config.publicUrl,
        })
      : undefined,
    tunnels: new TunnelRegistry(),
    liveStreams: new LiveStreams(database, sessions, clock),
    changes,
    accessCache,
    warnOnce(key, message) {
      if (warned.has(key)) return;
      warned.add(key);
      options.log.warn({ warning: key }, message);
    },
  };
  if (config.oidcIssuer && config.hostedIdpJwksUrl) {
    ctx.warnOnce(
      'hosted-and-oidc',
      'both OIDC and the hosted identity provider are configured: IdP groups of OIDC sessions are not forwarded to clusters',
    );
  }
  if (config.redisUrl && config.replicaUrl)
    ctx.replicas = await joinReplicas(ctx, { redisUrl: config.redisUrl, replicaUrl: config.replicaUrl });
  // Starting is how an operator puts a password in force; after joining, so the other replicas hear of it.
  if (await inForce.claim())
    options.log.info('this process put its break-glass password in force: credentials of any other one end');
  const { replicas } = ctx;
  const app = await buildHubServer(ctx, { logRequests: config.debugRequests });
  const sweeper = setInterval(() => {
    sessions.sweep().catch((error: unknown) => options.log.warn({ err: error }, 'session sweep failed'));
  }, sweepEveryMs);
  sweeper.unref();
  return {
    ctx,
    app,
    async listen() {
      if (replicas) await listenForPeers(replicas, config.listenAddress);
      return app.listen({ port: config.port, host: config.listenAddress });
    },
    async close() {
      clearInterval(sweeper);
      // Requests in flight get a grace period; connections still open after it (a client holding a
      // keep-alive or stream open) are cut, so stopping never waits on a client.
      const force = setTimeout(() => app.server.closeAllConnections(), closeGraceMs);
      force.unref();
      await app.close();
      clearTimeout(force);
      if (replicas) await leaveReplicas(replicas);
      await ctx.outbound.close();
      await database.close();
    },
  };
}
