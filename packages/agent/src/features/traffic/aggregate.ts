import type { Endpoint, FlowPair, ResolvedFlow } from './model.ts';

export const pairId = (sourceId: string, destinationId: string) => `${sourceId}→${destinationId}`;

/** A pair with nothing counted yet. */
export const emptyPair = (source: Endpoint, destination: Endpoint): FlowPair => ({
  id: pairId(source.id, destination.id),
  source,
  destination,
  ports: [],
  flows: 0,
  connections: 0,
  requests: 0,
  errors: 0,
  requestRate: 0,
  errorRate: 0,
  verdicts: {},
  httpStatus: {},
  lastSeen: '',
});

interface Tally {
  pair: FlowPair;
  latencySum: number;
  latencyCount: number;
  lastSeen: number;
  ports: Map<string, { protocol: string; port?: number; flows: number; dropped: number }>;
}

/**
 * Adds resolved flows up per source→destination pair over a window of `windowMs`. Replies are counted on the
 * pair of the request they answer (the caller turns them around before), so a pair reads client→server.
 */
export function aggregateFlows(flows: readonly ResolvedFlow[], windowMs: number): FlowPair[] {
  const tallies = new Map<string, Tally>();
  for (const { source, destination, record } of flows) {
    const id = pairId(source.id, destination.id);
    let tally = tallies.get(id);
    if (!tally) {
      tally = {
        pair: emptyPair(source, destination),
        latencySum: 0,
        latencyCount: 0,
        lastSeen: 0,
        ports: new Map(),
      };
      tallies.set(id, tally);
    }
    const { pair } = tally;
    pair.flows += 1;
    pair.verdicts[record.verdict] = (pair.verdicts[record.verdict] ?? 0) + 1;
    if (record.opensConnection) pair.connections += 1;
    const portKey = `${record.protocol}/${record.port ?? ''}`;
    const port = tally.ports.get(portKey) ?? {
      protocol: record.protocol,
      port: record.port,
      flows: 0,
      dropped: 0,
    };
    port.flows += 1;
    if (record.verdict === 'dropped' || record.verdict === 'error') port.dropped += 1;
    tally.ports.set(portKey, port);
    const l7 = record.l7;
    if (l7?.type === 'request') pair.requests += 1;
    if (l7?.type === 'response' && l7.status !== undefined) {
      pair.httpStatus[String(l7.status)] = (pair.httpStatus[String(l7.status)] ?? 0) + 1;
      if (l7.status >= 500) pair.errors += 1;
    }
    if (l7?.latencyMs !== undefined && l7.type === 'response') {
      tally.latencySum += l7.latencyMs;
      tally.latencyCount += 1;
    }
    tally.lastSeen = Math.max(tally.lastSeen, record.time);
  }
  const seconds = windowMs / 1000;
  return [...tallies.values()]
    .map(({ pair, ports, latencySum, latencyCount, lastSeen }) => ({
      ...pair,
      ports: [...ports.values()].sort((a, b) => b.flows - a.flows),
      requestRate: round(pair.requests / seconds),
      errorRate: pair.requests > 0 ? round(pair.errors / pair.requests) : 0,
      ...(latencyCount > 0 ? { avgLatencyMs: round(latencySum / latencyCount) } : {}),
      lastSeen: new Date(lastSeen).toISOString(),
    }))
    .sort((a, b) => b.flows - a.flows || a.id.localeCompare(b.id));
}

const round = (value: number) => Math.round(value * 1000) / 1000;
