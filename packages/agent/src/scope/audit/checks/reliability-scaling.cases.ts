import type { KubeObject } from '@binnacle/common';
import { type Case, check } from './cases.ts';
import { deployment, hpa, namespace, object, pdb, readyPod, workload } from './fixtures.ts';

const replicas = (count: number | undefined, kind = 'Deployment') => {
  const w = workload(kind);
  return { ...w, spec: { ...w.spec, replicas: count } };
};
const withObjects = (...cluster: KubeObject[]) => ({ cluster });
const elsewhere = { ...pdb({ maxUnavailable: 1 }), metadata: { name: 'web', namespace: `${namespace}-2` } };
const onNodes = (...nodes: string[]) => withObjects(...nodes.map((node, i) => readyPod(`web-${i}`, node)));
const pending = readyPod('web-9', 'node-a', { status: { phase: 'Pending' } });

export const reliabilityScalingCases: Case[] = [
  ...check('singleReplica', (flags, passes) => [
    flags('one replica', replicas(1), ['warning', 'runs a single replica']),
    flags('a StatefulSet without replicas (defaults to 1)', replicas(undefined, 'StatefulSet'), [
      'warning',
      'single replica',
    ]),
    passes('three replicas', replicas(3)),
    passes('scaled by an HPA', replicas(1), withObjects(hpa(2, 5))),
    passes('scaled to zero', replicas(0)),
  ]),
  ...check('missingPDB', (flags, passes) => [
    flags('no PDB', deployment(), ['warning', 'no PodDisruptionBudget covers its pods']),
    flags(
      'a PDB in another namespace',
      deployment(),
      ['warning', 'no PodDisruptionBudget'],
      withObjects(elsewhere),
    ),
    passes('a PDB selects the pods', deployment(), withObjects(pdb({ maxUnavailable: 1 }))),
  ]),
  ...check('pdbMinAvailableGreaterThanHPAMinReplicas', (flags, passes) => [
    flags(
      'minAvailable 3, minReplicas 2',
      deployment(),
      [
        'warning',
        "PodDisruptionBudget web keeps 3 pods available, more than HorizontalPodAutoscaler web's minReplicas 2",
      ],
      withObjects(pdb({ minAvailable: 3 }), hpa(2, 6)),
    ),
    passes('a percentage', deployment(), withObjects(pdb({ minAvailable: '50%' }), hpa(2, 6))),
    passes('maxUnavailable', deployment(), withObjects(pdb({ maxUnavailable: 1 }), hpa(2, 6))),
    passes('no HPA', deployment(), withObjects(pdb({ minAvailable: 3 }))),
  ]),
  ...check('podHARisk', (flags, passes) => [
    flags(
      'every ready replica on one node',
      deployment(),
      ['warning', 'all 3 ready replicas run on node node-a'],
      onNodes('node-a', 'node-a', 'node-a'),
    ),
    passes('replicas on two nodes', deployment(), onNodes('node-a', 'node-b')),
    passes('only one replica is ready', deployment(), withObjects(readyPod('web-1', 'node-a'), pending)),
  ]),
  ...check('pdbDisruptionsIsZero', (flags, passes) => [
    flags('maxUnavailable 0', pdb({ maxUnavailable: 0 }), ['warning', 'maxUnavailable is 0']),
    flags('minAvailable 100%', pdb({ minAvailable: '100%' }), [
      'warning',
      'minAvailable 100% keeps all its pods',
    ]),
    flags('minAvailable as many as the pods', pdb({ minAvailable: 3 }, { expectedPods: 3 }), [
      'warning',
      'minAvailable 3',
    ]),
    passes('minAvailable below the pods', pdb({ minAvailable: 2 }, { expectedPods: 3 })),
    passes('maxUnavailable 1', pdb({ maxUnavailable: 1 })),
  ]),
  ...check('hpaMinAvailability', (flags, passes) => [
    flags('minReplicas unset', hpa(undefined, 4), ['warning', 'minReplicas is 1']),
    passes('minReplicas 2', hpa(2, 4)),
  ]),
  ...check('hpaMaxAvailability', (flags, passes) => [
    flags('max equals min', hpa(3, 3), ['warning', 'maxReplicas 3 is not above minReplicas 3']),
    passes('room to scale', hpa(2, 5)),
    passes('not an HPA', object('v1', 'ConfigMap', 'hpa')),
  ]),
];
