import type { KubeObject } from '@binnacle/common';
import { mapSelectorMatcher } from '../../../kube/selectors.ts';
import { defineCheck, type Problem } from './define.ts';
import type { AuditContext, Check } from './types.ts';
import { few, list, nameOf, namespaceOf, type Obj, obj, str } from './values.ts';

/** The Services an Ingress sends traffic to: default backend and every path (networking.k8s.io/v1 and v1beta1 forms). */
export function ingressServices(ingress: KubeObject): string[] {
  const spec = obj(ingress.spec);
  const paths = list(spec.rules).flatMap((rule) => list(obj(rule.http).paths));
  const backends: Obj[] = [
    obj(spec.defaultBackend),
    obj(spec.backend),
    ...paths.map((path) => obj(path.backend)),
  ];
  const names = backends.map((b) => str(obj(b.service).name) ?? str(b.serviceName));
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

/** Secrets that are consumed by the control plane or by Helm, not by pods. */
const systemSecretTypes = [
  'kubernetes.io/service-account-token',
  'bootstrap.kubernetes.io/token',
  'helm.sh/release.v1',
];

function unusedOnPurpose(object: KubeObject): boolean {
  if (object.kind === 'ConfigMap') return nameOf(object) === 'kube-root-ca.crt';
  return systemSecretTypes.includes(String(object.type));
}

function selectsNothing(service: KubeObject, context: AuditContext): Problem[] {
  const spec = obj(service.spec);
  const selector = obj(spec.selector) as Record<string, string>;
  if (spec.type === 'ExternalName' || Object.keys(selector).length === 0) return [];
  const matches = mapSelectorMatcher(selector);
  if (context.list('Pod', namespaceOf(service)).some((pod) => matches(pod.metadata?.labels))) return [];
  const text = Object.entries(selector).map(([key, value]) => `${key}=${value}`);
  return [{ message: `selector ${text.join(',')} matches no pods` }];
}

function missingBackends(ingress: KubeObject, context: AuditContext): Problem[] {
  const missing = ingressServices(ingress).filter(
    (name) => !context.get('Service', namespaceOf(ingress), name),
  );
  return missing.length > 0 ? [{ message: `routes to missing Service ${few(missing)}` }] : [];
}

function orphan(object: KubeObject, context: AuditContext): Problem[] {
  const kind = object.kind === 'Secret' ? 'Secret' : 'ConfigMap';
  if (unusedOnPurpose(object) || (object.metadata?.ownerReferences ?? []).length > 0) return [];
  if (context.isReferenced(kind, namespaceOf(object), nameOf(object))) return [];
  return [{ message: `no pod, workload, Ingress or ServiceAccount refers to ${kind} ${nameOf(object)}` }];
}

export const referenceChecks: Check[] = [
  defineCheck('serviceNoMatchingPods', ['Service'], selectsNothing),
  defineCheck('ingressNoMatchingService', ['Ingress'], missingBackends),
  defineCheck('orphanConfigMapSecret', ['ConfigMap', 'Secret'], orphan),
];
