import { mapConcurrently } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import type { LogsContext } from './module.ts';
import { readPodLog } from './service.ts';
import { logLimits } from './stream.ts';
import { hasLogs, workloadPods } from './workload.ts';

export interface WorkloadLogLine {
  pod: string;
  container: string;
  timestamp?: string;
  line: string;
}

export interface WorkloadTail {
  kind: string;
  namespace: string;
  name: string;
  /** The pods read (at most `logLimits.maxPods`, by name), and how many more there were. */
  pods: string[];
  podsLeftOut: number;
  /** The last `tail` lines over all of them, oldest first. */
  lines: WorkloadLogLine[];
  /** Containers whose log could not be read (no previous run, forbidden …), with the reason. */
  errors: { pod: string; container: string; error: string }[];
}

const readsAtOnce = 4;

/**
 * The last lines of a workload's pods, read at once (no stream) and merged by time: each container's last `tail`
 * lines are read, as the caller, and the newest `tail` of them all are kept.
 */
export async function readWorkloadLogs(
  ctx: LogsContext,
  kind: string,
  namespace: string,
  name: string,
  query: { container?: string; tail: number; sinceSeconds?: number; previous?: boolean; as?: Impersonation },
): Promise<WorkloadTail> {
  const { workloadKind, containers, current } = workloadPods(ctx, kind, namespace, name, query.container);
  const readable = current
    .filter(hasLogs)
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  const pods = readable.slice(0, logLimits.maxPods);
  const targets = pods.flatMap((pod) =>
    containers(pod).map((container) => ({ pod: pod.metadata?.name ?? '', container })),
  );
  const errors: WorkloadTail['errors'] = [];
  const logs = await mapConcurrently(targets, readsAtOnce, async ({ pod, container }) => {
    try {
      const log = await readPodLog(ctx, namespace, pod, { ...query, container });
      return log.lines.map((l) => ({ pod, container, ...l }));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push({ pod, container, error: `${error.code}: ${error.message}` });
      return [];
    }
  });
  const lines = logs.flat().sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? ''));
  return {
    kind: workloadKind,
    namespace,
    name,
    pods: pods.map((p) => p.metadata?.name ?? ''),
    podsLeftOut: readable.length - pods.length,
    lines: lines.slice(-query.tail),
    errors: errors.sort((a, b) => a.pod.localeCompare(b.pod) || a.container.localeCompare(b.container)),
  };
}
