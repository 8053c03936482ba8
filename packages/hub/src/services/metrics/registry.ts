import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The hub's Prometheus metrics, in a registry of its own (several hubs can share a test process). */
export function createMetrics(counts: {
  activeSessions: () => Promise<number>;
  clusters: () => Promise<number>;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'binnacle_hub_' });
  const metrics = {
    registry,
    requests: new Counter({
      name: 'binnacle_hub_http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'binnacle_hub_http_request_duration_seconds',
      help: 'HTTP request duration by route',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    signIns: new Counter({
      name: 'binnacle_hub_sign_ins_total',
      help: 'Sign-in attempts by method and result',
      labelNames: ['method', 'result'],
      registers: [registry],
    }),
    sessionsEnded: new Counter({
      name: 'binnacle_hub_sessions_ended_total',
      help: 'Sessions found ended at use, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'binnacle_hub_sessions_active',
    help: 'Sessions within their absolute lifetime',
    registers: [registry],
    async collect() {
      this.set(await counts.activeSessions());
    },
  });
  new Gauge({
    name: 'binnacle_hub_clusters',
    help: 'Registered clusters',
    registers: [registry],
    async collect() {
      this.set(await counts.clusters());
    },
  });
  return metrics;
}

export type HubMetrics = ReturnType<typeof createMetrics>;
