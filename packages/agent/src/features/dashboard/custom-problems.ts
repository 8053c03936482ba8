import type { KubeObject } from '@binnacle/common';
import type { ApiResource } from '../../kube/discovery.ts';
import { type HealthWhy, healthWhy } from '../../kube/health.ts';
import { tierOf } from '../../kube/tiers.ts';
import { type Problem, problemAge } from './problems.ts';

/** Each cached object version's health, worked out once: a dashboard reads every custom resource on each call. */
const judged = new WeakMap<KubeObject, HealthWhy>();
const judge = (object: KubeObject) => {
  let why = judged.get(object);
  if (!why) {
    why = healthWhy(object);
    judged.set(object, why);
  }
  return why;
};

/**
 * How a problem names a custom resource's kind: its kind, or `plural.group` when another served kind has the same
 * name (Knative's `Service`, Velero's and CloudNativePG's `Backup`), so that the web's link opens the right object.
 */
function kindNames(resources: readonly ApiResource[], custom: readonly ApiResource[]) {
  const seen = new Map<string, number>();
  for (const resource of resources) seen.set(resource.kind, (seen.get(resource.kind) ?? 0) + 1);
  return (resource: ApiResource) =>
    (seen.get(resource.kind) ?? 0) > 1 && custom.includes(resource)
      ? `${resource.plural}.${resource.group}`
      : resource.kind;
}

/**
 * Custom resources that are unhealthy by their project's rules or the shared conventions (ADR 0126), with the
 * deciding condition's reason and message. Every custom kind the agent caches is read (ADR 0004's custom tier)
 * once `ready`; `get` reads one kind in the caller's view.
 */
export function customResourceProblems(
  resources: readonly ApiResource[],
  get: (group: string, kind: string) => KubeObject[],
  now: number,
  ready: (resource: ApiResource) => boolean = () => true,
): Problem[] {
  const custom = resources.filter((resource) => tierOf(resource) === 'custom');
  const kindOf = kindNames(resources, custom);
  return custom.filter(ready).flatMap((resource) =>
    get(resource.group, resource.kind).flatMap((object): Problem[] => {
      const why = judge(object);
      if (why.health !== 'unhealthy') return [];
      const reason = why.reason ?? why.from ?? 'Unhealthy';
      return [
        {
          kind: kindOf(resource),
          namespace: object.metadata?.namespace,
          name: object.metadata?.name ?? '',
          status: why.from ? `${why.from}: ${reason}` : reason,
          reason,
          message: why.message ?? `${resource.kind} is unhealthy (${reason})`,
          ageSeconds: problemAge(object, now),
          source: 'health',
        },
      ];
    }),
  );
}
