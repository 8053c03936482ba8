import type { KubeObject } from '@binnacle/common';
import { containerCheck, defineCheck, type PodView, type Problem, podCheck } from './define.ts';
import { type ContainerView, runsToCompletion } from './pod-spec.ts';
import type { AuditContext, Check } from './types.ts';
import { few, list, nameOf, str, strings } from './values.ts';

/** An image reference's tag and whether it is pinned by digest (`registry:5000/app:1.2@sha256:…`). */
export function imageRef(image: string): { tag: string | undefined; digest: boolean } {
  const digest = image.includes('@');
  const name = digest ? image.slice(0, image.indexOf('@')) : image;
  const colon = name.indexOf(':', name.lastIndexOf('/') + 1);
  return { tag: colon >= 0 ? name.slice(colon + 1) : undefined, digest };
}

/** The pull policy the API server defaults to when a container sets none. */
function pullPolicy(image: string, explicit: unknown): string {
  const ref = imageRef(image);
  return (
    str(explicit) ??
    (!ref.digest && (ref.tag === undefined || ref.tag === 'latest') ? 'Always' : 'IfNotPresent')
  );
}

const minutes = 60_000;

const probe = (field: 'readinessProbe' | 'livenessProbe') => (c: ContainerView, pod: PodView) =>
  runsToCompletion(pod.object, pod.spec) || c.spec[field] ? undefined : `has no ${field}`;

function floatingTag(c: ContainerView) {
  const image = str(c.spec.image);
  if (!image) return undefined;
  const { tag, digest } = imageRef(image);
  if (digest) return undefined;
  if (tag === undefined) return `image ${image} has no tag (pulls latest)`;
  return tag === 'latest' ? `image ${image} uses the latest tag` : undefined;
}

function instanceLabel({ object }: PodView): Problem[] {
  const instance = object.metadata?.labels?.['app.kubernetes.io/instance'];
  if (instance === nameOf(object)) return [];
  const message =
    instance === undefined
      ? 'has no app.kubernetes.io/instance label'
      : `app.kubernetes.io/instance is ${instance}, not ${nameOf(object)}`;
  return [{ message }];
}

function stuck(object: KubeObject, context: AuditContext): Problem[] {
  const deleted = Date.parse(object.metadata?.deletionTimestamp ?? '');
  const age = context.now - deleted;
  if (Number.isNaN(deleted) || age < 5 * minutes) return [];
  const finalizers = strings(object.metadata?.finalizers);
  const held = finalizers.length > 0 ? `; finalizers: ${few(finalizers)}` : '';
  const severity = age >= 30 * minutes ? 'danger' : 'warning';
  return [{ message: `has been terminating for ${Math.floor(age / minutes)} minutes${held}`, severity }];
}

export const reliabilityPodChecks: Check[] = [
  containerCheck('readinessProbeMissing', 'main', probe('readinessProbe')),
  containerCheck('livenessProbeMissing', 'main', probe('livenessProbe')),
  containerCheck('imageTagLatest', 'images', floatingTag),
  containerCheck('pullPolicyNotAlways', 'images', (c) => {
    const policy = pullPolicy(String(c.spec.image ?? ''), c.spec.imagePullPolicy);
    return policy === 'Always' ? undefined : `imagePullPolicy is ${policy}`;
  }),
  podCheck('priorityClassNotSet', (pod) => [
    str(pod.spec.priorityClassName) ? undefined : { message: 'sets no priorityClassName' },
  ]),
  podCheck(
    'missingTopologySpread',
    (pod) => [
      list(pod.spec.topologySpreadConstraints).length > 0
        ? undefined
        : { message: 'sets no topologySpreadConstraints' },
    ],
    ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'],
  ),
  podCheck('metadataAndInstanceMismatched', instanceLabel),
  defineCheck('stuckTerminating', ['*'], stuck),
];
