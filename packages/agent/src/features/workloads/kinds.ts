import { AppError } from '@binnacle/common/server';
import type { ApiResource } from '../../kube/discovery.ts';
import type { WorkloadsContext } from './module.ts';

/** The kinds workload operations apply to; Argo Rollouts only where its CRD is installed. */
const workloadKinds = [
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'apps', kind: 'DaemonSet' },
  { group: 'argoproj.io', kind: 'Rollout' },
] as const;

export type WorkloadKind = (typeof workloadKinds)[number]['kind'];

export interface Workload {
  resource: ApiResource & { kind: WorkloadKind };
  namespace: string;
  name: string;
}

/**
 * The workload kind a path names (any name kubectl takes: `deployments`, `deploy`, `sts`, `rollouts.argoproj.io`).
 * Anything else is a 400 that lists the kinds this cluster allows.
 */
export function workloadResource(ctx: WorkloadsContext, name: string): Workload['resource'] {
  const served = workloadKinds
    .map((w) => ctx.cluster.find(w.group, w.kind))
    .filter((r): r is ApiResource => r !== undefined);
  let resource: ApiResource | undefined;
  try {
    resource = ctx.cluster.resolve(name);
  } catch (error) {
    if (!(error instanceof AppError) || !['unknown_kind', 'ambiguous_kind'].includes(error.code)) throw error;
  }
  const match = served.find((r) => r === resource);
  if (match) return match as Workload['resource'];
  const allowed = served.map((r) => r.plural).join(', ');
  throw new AppError(
    'unknown_kind',
    `workload operations apply to ${allowed}${served.some((r) => r.kind === 'Rollout') ? '' : ' (and rollouts where Argo Rollouts is installed)'}, not "${name}"`,
  );
}
