import { type FeatureModule, modulesFor, type TypedApp } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import type { HubConfig } from './config/hub-config.ts';
import type { HubDatabase } from './db/database.ts';
import type { BreakGlass } from './security/break-glass.ts';
import type { ProxyTrust } from './security/client-address.ts';
import type { Clock } from './security/clock.ts';
import type { DeviceCookies } from './security/device-cookie.ts';
import type { GuardedFetcher } from './security/outbound.ts';
import type { SignInThrottle } from './security/sign-in-throttle.ts';
import type { RateLimit } from './security/sliding-window.ts';
import type { AccessCache } from './services/access/access-cache.ts';
import type { Changes } from './services/access/changes.ts';
import type { AuditLog } from './services/audit/audit-log.ts';
import type { Billing } from './services/billing/service.ts';
import type { HostedIdp } from './services/identity/hosted-idp.ts';
import type { OidcClient } from './services/identity/oidc-client.ts';
import type { PasswordInForce } from './services/identity/password-in-force.ts';
import type { HubMetrics } from './services/metrics/registry.ts';
import type { Replicas } from './services/replicas/replicas.ts';
import type { SessionRefresher } from './services/sessions/refresh.ts';
import type { SessionStore } from './services/sessions/store.ts';
import type { LiveStreams } from './services/tunnels/live-streams.ts';
import type { TunnelRegistry } from './services/tunnels/registry.ts';

/**
 * Everything the hub's features may use, built once by `hub.ts`; each feature's module names the keys it takes
 * and is handed only those (no container, no globals).
 */
export interface HubContext {
  version: string;
  config: HubConfig;
  database: HubDatabase;
  clock: Clock;
  /** HMAC and encryption key (32+ bytes). */
  secretKey: Buffer;
  sessions: SessionStore;
  /**
   * The break-glass admin, the password in force on every replica (ADR 0047), its sign-in throttle and the
   * device cookies that exempt known browsers (ADR 0048).
   */
  breakGlass: {
    admin: BreakGlass;
    inForce: PasswordInForce;
    throttle: SignInThrottle;
    devices: DeviceCookies;
  };
  /** docs/architecture.md §6.2.7: one bucket per user for everything that fans out across clusters (fleet routes, MCP). */
  fleetLimit: RateLimit;
  audit: AuditLog;
  /** The proxies whose X-Forwarded-For names the client (ADR 0048); none: the socket's peer is the client. */
  proxyTrust?: ProxyTrust;
  /** Fetches URLs a caller chose, never to internal addresses the operator did not allow (ADR 0049). */
  outbound: GuardedFetcher;
  metrics: HubMetrics;
  log: FastifyBaseLogger;
  /** OIDC sign-in, when configured. */
  oidc?: OidcClient;
  refresher?: SessionRefresher;
  /** The hosted identity provider, when configured. */
  hosted?: HostedIdp;
  /** Billing with Stripe and its plan limits, when configured (docs/billing.md). */
  billing?: Billing;
  /** Agents connected to this hub process. */
  tunnels: TunnelRegistry;
  /** Tunneled requests in flight and who they act for: cut when that access ends. */
  liveStreams: LiveStreams;
  /** Changes to access, announced by this replica or heard from the others. */
  changes: Changes;
  /** The other replicas and the shared tunnel directory, when the hub runs as several (`redisUrl`). */
  replicas?: Replicas;
  /** The rows requests' access is decided from; emptied by every change (ADR 0043). */
  accessCache: AccessCache;
  /** Logs a warning once per process (conditions that hold for many sessions). */
  warnOnce(key: string, message: string): void;
}

/** The fastify instance with TypeBox types on every route. */
export type HubApp = TypedApp;

/** One hub feature: the keys of the context it needs and what it registers (`modules.ts` lists them). */
export type HubModule = FeatureModule<HubApp, HubContext>;
export const hubModule = modulesFor<HubApp, HubContext>();

/** 30 requests per minute per user, shared by `/api/fleet/*` and the MCP tools that fan out. */
export const fleetRateLimit = { limit: 30, windowMs: 60_000 };
