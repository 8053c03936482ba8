import type { KubeObject } from '@binnacle/common';
import { selectorMatcher } from '../../../kube/selectors.ts';
import { defineCheck, type Problem } from './define.ts';
import { ownedByWorkload, podTemplateOf } from './pod-spec.ts';
import type { AuditContext, Check } from './types.ts';
import { labelsOf, list, nameOf, namespaceOf, num, obj } from './values.ts';

const replicated = ['Deployment', 'StatefulSet'];

/** The HorizontalPodAutoscaler that scales a workload, if any. */
function hpaOf(workload: KubeObject, context: AuditContext): KubeObject | undefined {
  return context.list('HorizontalPodAutoscaler', namespaceOf(workload)).find((hpa) => {
    const target = obj(obj(hpa.spec).scaleTargetRef);
    return target.kind === workload.kind && target.name === nameOf(workload);
  });
}

/** The PodDisruptionBudgets whose selector takes the workload's pods. */
function pdbsOf(workload: KubeObject, context: AuditContext): KubeObject[] {
  const labels = labelsOf(podTemplateOf(workload)?.metadata.labels);
  return context
    .list('PodDisruptionBudget', namespaceOf(workload))
    .filter((pdb) => selectorMatcher(obj(obj(pdb.spec).selector))(labels));
}

const replicasOf = (workload: KubeObject) => num(obj(workload.spec).replicas) ?? 1;

/** A PDB's minAvailable in pods for a number of replicas (percentages round up, as the disruption controller does). */
export function minAvailablePods(value: unknown, replicas: number): number | undefined {
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(String(value));
  return percent ? Math.ceil((Number(percent[1]) * replicas) / 100) : undefined;
}

const podReady = (pod: KubeObject) =>
  !pod.metadata?.deletionTimestamp &&
  list(obj(pod.status).conditions).some((c) => c.type === 'Ready' && c.status === 'True');

/** A check on a Deployment or StatefulSet that will run pods (scaled to zero is a choice, not a risk). */
const replicatedCheck = (
  id: string,
  find: (workload: KubeObject, context: AuditContext) => (Problem | undefined)[],
) =>
  defineCheck(id, replicated, (workload, context) =>
    replicasOf(workload) === 0 ? [] : find(workload, context),
  );

const hpaCheck = (id: string, find: (min: number, max: number | undefined) => string | undefined) =>
  defineCheck(id, ['HorizontalPodAutoscaler'], (hpa) => {
    const spec = obj(hpa.spec);
    const message = find(num(spec.minReplicas) ?? 1, num(spec.maxReplicas));
    return [message === undefined ? undefined : { message }];
  });

function pdbAboveHpa(workload: KubeObject, context: AuditContext) {
  const hpa = hpaOf(workload, context);
  if (!hpa) return [];
  const minReplicas = num(obj(hpa.spec).minReplicas) ?? 1;
  return pdbsOf(workload, context).map((pdb) => {
    const required = minAvailablePods(obj(pdb.spec).minAvailable, minReplicas);
    if (required === undefined || required <= minReplicas) return undefined;
    return {
      message: `PodDisruptionBudget ${nameOf(pdb)} keeps ${required} pods available, more than HorizontalPodAutoscaler ${nameOf(hpa)}'s minReplicas ${minReplicas}`,
    };
  });
}

function oneNode(workload: KubeObject, context: AuditContext): Problem[] {
  if (ownedByWorkload(workload)) return [];
  const ready = context.podsOf(workload).filter(podReady);
  const nodes = new Set(ready.map((pod) => String(obj(pod.spec).nodeName ?? '')));
  const [node] = nodes;
  if (ready.length < 2 || nodes.size !== 1 || !node) return [];
  return [{ message: `all ${ready.length} ready replicas run on node ${node}` }];
}

function noDisruption(pdb: KubeObject): Problem[] {
  const spec = obj(pdb.spec);
  const expected = num(obj(pdb.status).expectedPods) ?? 0;
  if (spec.maxUnavailable === 0 || spec.maxUnavailable === '0%')
    return [{ message: 'maxUnavailable is 0: no pod can be evicted' }];
  const required = minAvailablePods(spec.minAvailable, expected);
  if (spec.minAvailable === '100%' || (expected > 0 && required !== undefined && required >= expected))
    return [
      { message: `minAvailable ${String(spec.minAvailable)} keeps all its pods: no pod can be evicted` },
    ];
  return [];
}

export const reliabilityScalingChecks: Check[] = [
  replicatedCheck('singleReplica', (workload, context) => [
    replicasOf(workload) < 2 && !hpaOf(workload, context) ? { message: 'runs a single replica' } : undefined,
  ]),
  replicatedCheck('missingPDB', (workload, context) => [
    pdbsOf(workload, context).length === 0
      ? { message: 'no PodDisruptionBudget covers its pods' }
      : undefined,
  ]),
  replicatedCheck('pdbMinAvailableGreaterThanHPAMinReplicas', pdbAboveHpa),
  defineCheck('podHARisk', ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'], oneNode),
  defineCheck('pdbDisruptionsIsZero', ['PodDisruptionBudget'], noDisruption),
  hpaCheck('hpaMinAvailability', (min) => (min < 2 ? `minReplicas is ${min}` : undefined)),
  hpaCheck('hpaMaxAvailability', (min, max) =>
    max !== undefined && max <= min ? `maxReplicas ${max} is not above minReplicas ${min}` : undefined,
  ),
];
