import type { KubeObject } from '@binnacle/common';
import { drainFit, type FitSnapshot } from '../packages/agent/src/features/nodes/fit/drain-fit.ts';
import type { BenchResult } from './run.ts';

const runs = 7;
const budgets = 50;

const replicaSet = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true }];

/** `nodes` nodes of 64 CPUs, each running `perNode` pods of 100m in 20 namespaces and 50 apps, one budget per app. */
function generated(nodes: number, perNode: number): FitSnapshot {
  const nodeObjects: KubeObject[] = Array.from({ length: nodes }, (_, i) => ({
    metadata: { name: `node-${String(i).padStart(5, '0')}`, labels: { zone: `zone-${i % 3}` } },
    spec: {},
    status: { allocatable: { cpu: '64', memory: '256Gi', pods: '250' } },
  }));
  const pods: KubeObject[] = nodeObjects.flatMap((node, n) =>
    Array.from({ length: perNode }, (_, p) => ({
      metadata: {
        name: `pod-${n}-${p}`,
        namespace: `ns-${p % 20}`,
        labels: { app: `app-${p % budgets}` },
        ownerReferences: replicaSet,
      },
      spec: {
        nodeName: node.metadata?.name,
        containers: [{ name: 'main', resources: { requests: { cpu: '100m', memory: '256Mi' } } }],
      },
      status: { phase: 'Running' },
    })),
  );
  const pdbs: KubeObject[] = Array.from({ length: budgets }, (_, i) => ({
    metadata: { name: `app-${i}`, namespace: `ns-${i % 20}` },
    spec: { maxUnavailable: 1, selector: { matchLabels: { app: `app-${i}` } } },
    status: { disruptionsAllowed: 1 },
  }));
  return { nodes: nodeObjects, pods, budgets: pdbs, namespaces: [], daemonSetExists: () => true };
}

/**
 * The drain fit (ADR 0123) in process on generated clusters: a group of 1, 10 and 100 nodes (the route's limit) of
 * 110 pods each in a 1 000-node cluster, the first call (cold) and the median and worst of seven more.
 */
export function drainFitBench(): Promise<BenchResult> {
  const snapshot = generated(1000, 110);
  const options = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false };
  const cases = [1, 10, 100].map((group) => {
    const names = snapshot.nodes.slice(0, group).map((n) => n.metadata?.name ?? '');
    const times: number[] = [];
    let fit = drainFit(snapshot, names, options);
    for (let i = 0; i <= runs; i++) {
      const start = performance.now();
      fit = drainFit(snapshot, names, options);
      times.push(performance.now() - start);
    }
    const [cold, ...warm] = times;
    warm.sort((a, b) => a - b);
    return {
      group,
      evicted: fit.pods.length,
      batches: fit.sequence.batches.length,
      fits: fit.fits,
      coldMs: Math.round(cold ?? 0),
      medianMs: Math.round(warm[runs >> 1] ?? 0),
      worstMs: Math.round(warm[runs - 1] ?? 0),
    };
  });
  return Promise.resolve({
    name: 'drain-fit',
    summary: `1 000 nodes, 110 000 pods, ${budgets} budgets: ${cases
      .map((c) => `${c.group} node(s), ${c.evicted} pods: p50 ${c.medianMs} ms, worst ${c.worstMs} ms`)
      .join('; ')}`,
    data: { nodes: 1000, podsPerNode: 110, budgets, cases },
  });
}
