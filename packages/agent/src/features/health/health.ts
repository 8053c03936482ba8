import type { TierStatus } from '../../kube/informer-cache.ts';
import type { TimelineWrites } from '../../scope/timeline/writer.ts';
import type { HealthContext } from './module.ts';

export type HealthStatus = 'starting' | 'healthy' | 'degraded' | 'disconnected';

export interface HealthReport {
  status: HealthStatus;
  version: string;
  connection: { state: string; error?: string; code?: string };
  sync: { ready: boolean; tiers: TierStatus[] };
  resourceCount: number;
  /** The timeline's store and how its writes fare: a refusal is named here while it lasts (ADR 0073). */
  timeline: { store: 'memory' | 'sqlite' } & TimelineWrites;
  runtime: { node: string; pid: number; rssMB: number; heapUsedMB: number; uptimeSeconds: number };
}

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/**
 * `starting` until the core kinds are in, `disconnected` while the API server cannot be reached, `degraded`
 * when some kind keeps failing to load (other than being forbidden) or the timeline store refuses writes,
 * otherwise `healthy`.
 */
export function healthReport(ctx: HealthContext): HealthReport {
  const { cluster } = ctx;
  const tiers = cluster.cache.tiers();
  const coreSynced = tiers.find((t) => t.name === 'core')?.state === 'synced';
  const writes = ctx.timeline.writes();
  const failing = cluster.cache.kinds().some((k) => k.state === 'error') || writes.state === 'failing';
  let status: HealthStatus;
  if (cluster.state === 'disconnected') status = 'disconnected';
  else if (!coreSynced) status = 'starting';
  else status = failing ? 'degraded' : 'healthy';
  const memory = process.memoryUsage();
  return {
    status,
    version: ctx.version,
    connection: { state: cluster.state, error: cluster.lastError?.message, code: cluster.lastError?.code },
    sync: { ready: coreSynced, tiers },
    resourceCount: cluster.cache.objectCount(),
    timeline: { store: ctx.timeline.store.kind, ...writes },
    runtime: {
      node: process.version,
      pid: process.pid,
      rssMB: mb(memory.rss),
      heapUsedMB: mb(memory.heapUsed),
      uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
    },
  };
}
