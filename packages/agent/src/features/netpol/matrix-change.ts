import type { KubeObject } from '@binnacle/common';
import type { WorkloadPods } from './flows.ts';
import { podReachabilityMatrix } from './matrix.ts';
import type { ClusterSnapshot } from './model.ts';

/** The namespace's workloads are at most this many rows (and columns): the busiest are not chosen, the first by name. */
export const matrixWorkloads = 40;

/** A namespace's reachability between workloads before and after a change, on any TCP port. */
export interface MatrixChange {
  namespace: string;
  /** The workload ids (`deployment/shop/web`), the order of rows (sources) and columns (destinations). */
  workloads: string[];
  cells: { before: boolean; after: boolean }[][];
  /** More workloads than `matrixWorkloads`: the first by id are shown. */
  truncated: boolean;
}

/**
 * Every workload of the namespace to every other, judged on one of its pods, with the policies before and after
 * (the matrix of matrix.ts, its rows named after the workloads).
 */
export function matrixChange(
  before: ClusterSnapshot,
  after: ClusterSnapshot,
  namespace: string,
  workloads: WorkloadPods,
): MatrixChange {
  const all = [...workloads]
    .filter(([id, pods]) => pods.length > 0 && pods[0]?.metadata?.namespace === namespace && id !== 'hidden')
    .sort(([a], [b]) => a.localeCompare(b));
  const shown = all.slice(0, matrixWorkloads);
  const refs = shown.map(([, pods]) => {
    const pod = pods[0] as KubeObject;
    return { namespace, name: pod.metadata?.name ?? '' };
  });
  const [was, will] = [podReachabilityMatrix(before, refs), podReachabilityMatrix(after, refs)];
  return {
    namespace,
    workloads: shown.map(([id]) => id),
    cells: was.cells.map((row, s) =>
      row.map((cell, d) => ({ before: cell.allowed, after: will.cells[s]?.[d]?.allowed ?? false })),
    ),
    truncated: all.length > shown.length,
  };
}
