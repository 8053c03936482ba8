import type { MetricFlow, MetricSource } from './metrics-flows.ts';
import type { FlowPair } from './model.ts';
import { metricPairsOf, type TrafficService } from './service.ts';
import type { FlowView } from './visibility.ts';

interface Reader {
  view: FlowView;
  windowMs: number;
}

/**
 * The pairs of each stream client from one read of the store per distinct window (clients share windows far
 * more often than views), each client's pairs cut to its own view; a failed read is the reason for its clients.
 */
export async function pollMetricPairs<C extends Reader>(
  service: TrafficService,
  source: MetricSource,
  clients: readonly C[],
  now: number,
): Promise<Map<C, FlowPair[] | { reason: string }>> {
  const namer = service.namer();
  const windows = [...new Set(clients.map((c) => c.windowMs))];
  const reads = new Map<number, MetricFlow[] | { reason: string }>();
  await Promise.all(
    windows.map(async (windowMs) => {
      reads.set(windowMs, await service.metrics.flows(source, namer, windowMs, now));
    }),
  );
  const answers = new Map<C, FlowPair[] | { reason: string }>();
  for (const client of clients) {
    const read = reads.get(client.windowMs) as MetricFlow[] | { reason: string };
    answers.set(client, Array.isArray(read) ? metricPairsOf(read, client.view, client.windowMs, now) : read);
  }
  return answers;
}
