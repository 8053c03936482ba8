import { defaultTopologyOptions } from '../packages/agent/src/scope/topology/builder.ts';
import { generatedCluster } from '../packages/agent/src/scope/topology/generated-cluster.fixture.ts';
import { estimate, reducedTopology } from '../packages/agent/src/scope/topology/level-of-detail.ts';
import type { BenchResult } from './run.ts';

const limit = 2000;
const runs = 7;

/**
 * The whole-cluster topology above `topologyMaxNodes` (ADR 0057), in process on generated objects: at 10 000 and
 * 50 000 pods, 100 pods per Deployment (drawn as pod groups) and 2 (too many workloads: counted per kind), the
 * level reached, nodes, edges, JSON bytes and the median and worst time of the estimate and the reduction.
 */
export function topologyLod(): Promise<BenchResult> {
  const cases = [];
  for (const pods of [10_000, 50_000])
    for (const perOwner of [100, 2]) {
      const input = generatedCluster(pods, perOwner);
      const times: number[] = [];
      let graph = reducedTopology(input, defaultTopologyOptions, limit);
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        estimate(input, defaultTopologyOptions);
        graph = reducedTopology(input, defaultTopologyOptions, limit);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      cases.push({
        pods,
        perOwner,
        level: graph.levelOfDetail,
        nodes: graph.nodes.length,
        edges: graph.edges.length,
        bytes: JSON.stringify(graph).length,
        medianMs: Math.round(times[runs >> 1] ?? 0),
        worstMs: Math.round(times[runs - 1] ?? 0),
      });
    }
  return Promise.resolve({
    name: 'topology-lod',
    summary: cases
      .map(
        (c) =>
          `${c.pods} pods, ${c.perOwner}/owner: ${c.level}, ${c.nodes} nodes, ${c.edges} edges, ${(c.bytes / 1024).toFixed(0)} KB, p50 ${c.medianMs} ms, worst ${c.worstMs} ms`,
      )
      .join('; '),
    data: { limit, cases },
  });
}
