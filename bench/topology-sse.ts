import { openSse, type SseClient } from '@binnacle/testkit';
import { defaultAuditSettings } from '../packages/agent/src/scope/settings.ts';
import { TopologyService } from '../packages/agent/src/scope/topology/service.ts';
import { goal } from './goals.ts';
import { createPods, loadCluster } from './load.ts';
import type { BenchResult } from './run.ts';
import { syncedAgent } from './synced-agent.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
};
const timed = async (fn: () => unknown): Promise<number> => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

async function httpLatency(
  url: string,
  requests: number,
): Promise<{ p50: number; p99: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests; i += 1) {
    times.push(
      await timed(async () => {
        const res = await fetch(url);
        bytes = (await res.arrayBuffer()).byteLength;
      }),
    );
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), bytes };
}

/**
 * At 10 000 pods: topology build time (fresh, no memo) for the pods' namespace and for the whole cluster (pods
 * grouped), p50/p99 and bytes of both over HTTP, p50/p99 of /api/resources/pods, and the delay from a change to
 * its delivery on 100 SSE clients; each next to its goal (issue 16).
 */
export async function topologySse(args: string[]): Promise<BenchResult> {
  const pods = Number(args.find((a) => a.startsWith('--pods='))?.slice(7) ?? 10_000);
  const clients = Number(args.find((a) => a.startsWith('--clients='))?.slice(10) ?? 100);
  const changes = 20;
  return loadCluster(pods, async (state, client) => {
    log(`creating ${pods} pods`);
    await createPods(client, state.nodes, pods);
    const { agent, url, close } = await syncedAgent(state.kubeconfigs.admin);
    const streams: SseClient[] = [];
    try {
      log('measuring topology builds');
      const builds = [];
      const wholeBuilds = [];
      let nodes = 0;
      let wholeNodes = 0;
      // As the route asks: each node's audit counts (the engine's memory shared across builds) and certificates.
      const findings = { audit: defaultAuditSettings(), certificates: true };
      for (let i = 0; i < 5; i += 1) {
        builds.push(
          await timed(
            () =>
              (nodes = new TopologyService().get(agent.ctx, { namespaces: ['bench-load'], ...findings }).nodes
                .length),
          ),
        );
        wholeBuilds.push(
          await timed(() => (wholeNodes = new TopologyService().get(agent.ctx, findings).nodes.length)),
        );
      }
      const bytesOf = async (path: string) => (await (await fetch(`${url}${path}`)).arrayBuffer()).byteLength;
      const topologyHttp = await httpLatency(`${url}/api/topology?namespace=bench-load`, 30);
      const wholeHttp = await httpLatency(`${url}/api/topology`, 30);
      const topologyBytes = await bytesOf('/api/topology?namespace=bench-load');
      const wholeBytes = await bytesOf('/api/topology');
      const podsHttp = await httpLatency(`${url}/api/resources/pods?limit=10000`, 20);
      const podsSummaryHttp = await httpLatency(`${url}/api/resources/pods?limit=10000&summary=true`, 20);

      log(`opening ${clients} event streams`);
      for (let i = 0; i < clients; i += 1)
        streams.push(await openSse(`${url}/api/events/stream?namespaces=bench-load`));
      await Promise.all(streams.map((s) => s.next((e) => e.event === 'topology', 120_000)));
      const delays: number[] = [];
      const worst: number[] = [];
      for (let i = 0; i < changes; i += 1) {
        const name = `load-${i}`;
        const sentAt = performance.now();
        await client.request({
          method: 'PATCH',
          path: `/api/v1/namespaces/bench-load/pods/${name}`,
          contentType: 'application/merge-patch+json',
          body: { metadata: { labels: { bench: `change-${i}` } } },
        });
        const isThisChange = (e: { event: string; data: unknown }) =>
          e.event === 'change' && JSON.stringify(e.data).includes(`change-${i}`);
        const got = await Promise.all(
          streams.map((s) => s.next(isThisChange, 30_000).catch((error: Error) => error)),
        );
        const failed = got.find((g) => g instanceof Error);
        if (failed) throw failed;
        const perClient = (got as { receivedAt: number }[]).map((e) => e.receivedAt - sentAt);
        delays.push(...perClient);
        worst.push(Math.max(...perClient));
      }
      const data = {
        pods,
        clients,
        topology: {
          nodes,
          buildMsMedian: quantile(builds, 0.5),
          http: topologyHttp,
          bytes: topologyBytes,
          whole: {
            nodes: wholeNodes,
            buildMsMedian: quantile(wholeBuilds, 0.5),
            http: wholeHttp,
            bytes: wholeBytes,
          },
        },
        resources: { pods: podsHttp, podsSummary: podsSummaryHttp },
        sse: {
          changes,
          delayP50: quantile(delays, 0.5),
          delayP99: quantile(delays, 0.99),
          worstPerChangeP50: quantile(worst, 0.5),
          worstMax: Math.round(Math.max(...worst)),
        },
      };
      const megabytes = (bytes: number) => Math.round(bytes / 10_486) / 100;
      return {
        name: 'topology-sse',
        summary:
          `${pods} pods: whole-cluster topology ${wholeNodes} nodes (pods grouped), built in ${data.topology.whole.buildMsMedian} ms, HTTP p50 ${goal(wholeHttp.p50, 40, 'ms')} / p99 ${wholeHttp.p99} ms, ${goal(megabytes(wholeBytes), 1, 'MB')}; ` +
          `namespace topology ${nodes} nodes built in ${data.topology.buildMsMedian} ms, HTTP p50 ${topologyHttp.p50} / p99 ${topologyHttp.p99} ms, ${goal(megabytes(topologyBytes), 1, 'MB')}; ` +
          `/api/resources/pods (10 000) p50 ${goal(podsHttp.p50, 100, 'ms')} / p99 ${podsHttp.p99} ms (summary ${podsSummaryHttp.p50}/${podsSummaryHttp.p99}); ` +
          `SSE change → ${clients} clients p50 ${data.sse.delayP50} ms, p99 ${goal(data.sse.delayP99, 100, 'ms')}, worst ${data.sse.worstMax} ms`,
        data,
      };
    } finally {
      for (const s of streams) s.close();
      await close();
    }
  });
}
