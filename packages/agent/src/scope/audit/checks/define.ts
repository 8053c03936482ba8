import type { KubeObject } from '@binnacle/common';
import { metaFor } from './meta.ts';
import {
  type ContainerSet,
  type ContainerView,
  containersOf,
  ownedByWorkload,
  type PodTemplate,
  podKinds,
  podTemplateOf,
} from './pod-spec.ts';
import type { AuditContext, Check, Finding, Severity } from './types.ts';

/** What a check's logic answers: a message, with a severity when it is not the check's default. */
export interface Problem {
  message: string;
  severity?: Severity;
  container?: string;
}

type Find<T> = (subject: T, context: AuditContext) => (Problem | undefined)[];

/** A check on whole objects of the kinds in `appliesTo` (`*`: any kind); its metadata comes from check-meta.json. */
export function defineCheck(id: string, appliesTo: readonly string[], find: Find<KubeObject>): Check {
  const meta = metaFor(id, appliesTo);
  const applies = (object: KubeObject) => appliesTo.includes('*') || appliesTo.includes(object.kind ?? '');
  return {
    meta,
    run(object, context) {
      if (!applies(object)) return [];
      return find(object, context)
        .filter((p): p is Problem => p !== undefined)
        .map(
          (p): Finding => ({
            checkId: id,
            severity: p.severity ?? meta.defaultSeverity,
            message: p.message,
            ...(p.container === undefined ? {} : { container: p.container }),
          }),
        );
    },
  };
}

export interface PodView extends PodTemplate {
  object: KubeObject;
}

/**
 * A check on a pod spec, whether a Pod's or a workload's template (all pod kinds unless `appliesTo` narrows
 * them). Objects a workload owns are left out: their owner is checked (see `ownedByWorkload`).
 */
export function podCheck(id: string, find: Find<PodView>, appliesTo: readonly string[] = podKinds): Check {
  return defineCheck(id, appliesTo, (object, context) => {
    const template = podTemplateOf(object);
    if (!template || ownedByWorkload(object)) return [];
    return find({ object, ...template }, context);
  });
}

/** A check on each container of a pod spec; `test` answers a message (or a problem) for a failing container. */
export function containerCheck(
  id: string,
  set: ContainerSet,
  test: (container: ContainerView, pod: PodView) => string | Problem | undefined,
): Check {
  return podCheck(id, (pod) =>
    containersOf(pod.spec, set).map((container) => {
      const answer = test(container, pod);
      if (answer === undefined) return undefined;
      const problem = typeof answer === 'string' ? { message: answer } : answer;
      return { container: container.name, ...problem };
    }),
  );
}
