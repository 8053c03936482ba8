import { emptyPair, pairId } from './aggregate.ts';
import type { MetricFlow } from './metrics-flows.ts';
import type { FlowPair } from './model.ts';

interface Tally {
  pair: FlowPair;
  ports: Map<string, { protocol: string; port?: number; flows: number }>;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Adds the flows a metrics source counted up per pair. `flows` is the number of the source's series the pair
 * adds up (metrics have no flow events), `connections` and `verdicts` stay empty (no source here counts them),
 * counts are rounded to whole requests and bytes, rates use the unrounded sums; busiest (requests, then bytes)
 * first.
 */
export function aggregateMetricFlows(
  flows: readonly MetricFlow[],
  windowMs: number,
  now: number,
): FlowPair[] {
  const tallies = new Map<string, Tally>();
  for (const flow of flows) {
    const id = pairId(flow.source.id, flow.destination.id);
    let tally = tallies.get(id);
    if (!tally) {
      tally = {
        pair: {
          ...emptyPair(flow.source, flow.destination),
          bytes: 0,
          lastSeen: new Date(now).toISOString(),
        },
        ports: new Map(),
      };
      tallies.set(id, tally);
    }
    const { pair } = tally;
    pair.flows += 1;
    pair.requests += flow.requests;
    pair.errors += flow.errors;
    pair.bytes = (pair.bytes ?? 0) + flow.bytes;
    for (const [status, count] of Object.entries(flow.httpStatus))
      pair.httpStatus[status] = (pair.httpStatus[status] ?? 0) + count;
    if (flow.port !== undefined || flow.protocol) {
      const protocol = flow.protocol ?? 'TCP';
      const key = `${protocol}/${flow.port ?? ''}`;
      const port = tally.ports.get(key) ?? { protocol, port: flow.port, flows: 0 };
      port.flows += 1;
      tally.ports.set(key, port);
    }
  }
  const seconds = windowMs / 1000;
  return [...tallies.values()]
    .map(({ pair, ports }) => ({
      ...pair,
      ports: [...ports.values()].sort((a, b) => b.flows - a.flows),
      requests: Math.round(pair.requests),
      errors: Math.round(pair.errors),
      bytes: Math.round(pair.bytes ?? 0),
      httpStatus: Object.fromEntries(
        Object.entries(pair.httpStatus).map(([status, count]) => [status, Math.round(count)]),
      ),
      requestRate: round(pair.requests / seconds),
      errorRate: pair.requests > 0 ? round(pair.errors / pair.requests) : 0,
    }))
    .sort((a, b) => b.requests - a.requests || (b.bytes ?? 0) - (a.bytes ?? 0) || a.id.localeCompare(b.id));
}
