import type { KubeObject } from '@binnacle/common';
import { appliedApiVersion } from '../../../kube/objects.ts';
import { defineCheck, type Problem } from './define.ts';
import type { AuditContext, Check } from './types.ts';

/** An API version of some kinds that Kubernetes removed, after the deprecation guide. */
export interface Deprecation {
  apiVersion: string;
  kinds: readonly string[];
  /** The Kubernetes minor release that stopped serving it. */
  removedIn: string;
  /** The apiVersion to move to; undefined when the API went away (PodSecurityPolicy). */
  replacement: string | undefined;
}

/**
 * The one table of removed API versions (the audit check and the upgrade readiness report, docs/upgrade-readiness.md
 * read it): the removals after the Kubernetes deprecation guide (through v1.32, its latest), one a line: the release that removed it, the apiVersion
 * (with `>replacement` when the replacement is not the same group's v1; `>-` when there is none) and the kinds.
 */
const removals = [
  '1.16 extensions/v1beta1>apps/v1 DaemonSet Deployment ReplicaSet',
  '1.16 extensions/v1beta1>networking.k8s.io/v1 NetworkPolicy',
  '1.16 extensions/v1beta1>policy/v1beta1 PodSecurityPolicy',
  '1.16 apps/v1beta1 Deployment StatefulSet ReplicaSet ControllerRevision',
  '1.16 apps/v1beta2 DaemonSet Deployment StatefulSet ReplicaSet ControllerRevision',
  '1.22 extensions/v1beta1>networking.k8s.io/v1 Ingress',
  '1.22 admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration ValidatingWebhookConfiguration',
  '1.22 apiextensions.k8s.io/v1beta1 CustomResourceDefinition',
  '1.22 apiregistration.k8s.io/v1beta1 APIService',
  '1.22 authentication.k8s.io/v1beta1 TokenReview',
  '1.22 authorization.k8s.io/v1beta1 LocalSubjectAccessReview SelfSubjectAccessReview SubjectAccessReview',
  '1.22 certificates.k8s.io/v1beta1 CertificateSigningRequest',
  '1.22 coordination.k8s.io/v1beta1 Lease',
  '1.22 networking.k8s.io/v1beta1 Ingress IngressClass',
  '1.22 rbac.authorization.k8s.io/v1beta1 ClusterRole ClusterRoleBinding Role RoleBinding',
  '1.22 scheduling.k8s.io/v1beta1 PriorityClass',
  '1.22 storage.k8s.io/v1beta1 CSIDriver CSINode StorageClass VolumeAttachment',
  '1.25 batch/v1beta1 CronJob',
  '1.25 discovery.k8s.io/v1beta1 EndpointSlice',
  '1.25 events.k8s.io/v1beta1 Event',
  '1.25 autoscaling/v2beta1>autoscaling/v2 HorizontalPodAutoscaler',
  '1.25 policy/v1beta1 PodDisruptionBudget',
  '1.25 policy/v1beta1>- PodSecurityPolicy',
  '1.25 node.k8s.io/v1beta1 RuntimeClass',
  '1.26 autoscaling/v2beta2>autoscaling/v2 HorizontalPodAutoscaler',
  '1.26 flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema PriorityLevelConfiguration',
  '1.27 storage.k8s.io/v1beta1 CSIStorageCapacity',
  '1.29 flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema PriorityLevelConfiguration',
  '1.32 flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema PriorityLevelConfiguration',
];

function parseRemoval(line: string): Deprecation {
  const [removedIn = '', versions = '', ...kinds] = line.split(' ');
  const [apiVersion = '', replacement] = versions.split('>');
  const sameGroup = `${apiVersion.slice(0, apiVersion.lastIndexOf('/'))}/v1`;
  return {
    apiVersion,
    kinds,
    removedIn,
    replacement: replacement === '-' ? undefined : (replacement ?? sameGroup),
  };
}

export const deprecations: readonly Deprecation[] = removals.map(parseRemoval);

const byKey = new Map(
  deprecations.flatMap((d) => d.kinds.map((kind) => [`${d.apiVersion} ${kind}`, d] as const)),
);

/** The removal an object's apiVersion and kind fall under, if any. */
export const deprecationOf = (apiVersion: string | undefined, kind: string | undefined) =>
  byKey.get(`${apiVersion} ${kind}`);

/**
 * The cache holds every object at the API server's preferred version, so the version that can be removed is the
 * one the object was last applied with (its manifest's), when kubectl left that trace.
 */
function removedVersion(object: KubeObject, context: AuditContext): Problem[] {
  const applied = appliedApiVersion(object);
  const deprecation = deprecationOf(applied ?? object.apiVersion, object.kind);
  if (!deprecation) return [];
  const served = context.servedApiVersions;
  const { apiVersion, removedIn, replacement } = deprecation;
  const replacementServed = replacement === undefined || served === undefined || served.has(replacement);
  const move =
    replacement === undefined
      ? 'the API has no replacement'
      : `use ${replacement}${replacementServed ? '' : ' once the cluster serves it'}`;
  const gone = served !== undefined && !served.has(apiVersion);
  const when = gone
    ? `is no longer served (removed in Kubernetes ${removedIn})`
    : `is removed in Kubernetes ${removedIn}`;
  const named = applied ? `last applied as ${apiVersion}, which` : `${apiVersion} ${object.kind}`;
  return [
    {
      message: `${named} ${when}; ${move}`,
      severity: replacementServed ? 'danger' : 'warning',
    },
  ];
}

export const deprecationChecks: Check[] = [
  defineCheck('deprecatedAPIVersion', [...new Set(deprecations.flatMap((d) => d.kinds))], removedVersion),
];
