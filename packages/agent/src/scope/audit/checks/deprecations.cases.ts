import { stripObject } from '../../../kube/objects.ts';
import { type Case, check } from './cases.ts';
import { object } from './fixtures.ts';

/** An object as the cache holds it after `kubectl apply` of a manifest at `applied`. */
const appliedAs = (applied: string, apiVersion: string, kind: string) =>
  stripObject(
    object(apiVersion, kind, 'web', {
      metadata: {
        name: 'web',
        namespace: 'shop',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ apiVersion: applied, kind }),
        },
      },
    }),
  );

const served = (...versions: string[]) => ({
  options: { servedApiVersions: ['v1', 'apps/v1', ...versions] },
});

export const deprecationCases: Case[] = [
  ...check('deprecatedAPIVersion', (flags, passes) => [
    flags('extensions/v1beta1 Ingress, discovery not read', object('extensions/v1beta1', 'Ingress', 'web'), [
      'danger',
      'extensions/v1beta1 Ingress is removed in Kubernetes 1.22; use networking.k8s.io/v1',
    ]),
    flags(
      'a policy/v1beta1 PDB no longer served',
      object('policy/v1beta1', 'PodDisruptionBudget', 'web'),
      ['danger', 'is no longer served (removed in Kubernetes 1.25); use policy/v1'],
      served('policy/v1'),
    ),
    flags(
      'autoscaling/v2beta2 without autoscaling/v2 yet',
      object('autoscaling/v2beta2', 'HorizontalPodAutoscaler', 'web'),
      ['warning', 'use autoscaling/v2 once the cluster serves it'],
      served('autoscaling/v2beta2'),
    ),
    flags('PodSecurityPolicy', object('policy/v1beta1', 'PodSecurityPolicy', 'restricted'), [
      'danger',
      'has no replacement',
    ]),
    flags(
      'a PDB served at policy/v1, last applied as policy/v1beta1',
      appliedAs('policy/v1beta1', 'policy/v1', 'PodDisruptionBudget'),
      ['danger', 'last applied as policy/v1beta1, which is no longer served (removed in Kubernetes 1.25)'],
      served('policy/v1'),
    ),
    passes('networking.k8s.io/v1 Ingress', object('networking.k8s.io/v1', 'Ingress', 'web')),
    passes('batch/v1 CronJob', object('batch/v1', 'CronJob', 'report'), served('batch/v1')),
  ]),
];
