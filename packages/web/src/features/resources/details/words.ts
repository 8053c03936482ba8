import type { KubeObject } from '@binnacle/common';

/** The pure words of the kinds' pages (no React, no API), so they are unit-tested on their own. */

export interface Backend {
  service?: { name: string; port?: { name?: string; number?: number } };
  resource?: { kind: string; name: string; apiGroup?: string };
}

/** What is wrong with an Ingress backend: its Service or the port it names missing; undefined when all is there. */
export function backendProblem(backend: Backend, services: KubeObject[]): string | undefined {
  if (!backend.service) return undefined;
  const service = services.find((s) => s.metadata?.name === backend.service?.name);
  if (!service) return 'no such Service';
  const wanted = backend.service.port;
  const ports = (service.spec?.ports as { name?: string; port?: number }[] | undefined) ?? [];
  if (wanted?.name && !ports.some((p) => p.name === wanted.name)) return `no port named ${wanted.name}`;
  if (wanted?.number && !ports.some((p) => p.port === wanted.number)) return `no port ${wanted.number}`;
  return undefined;
}

const accessModeShort: Record<string, string> = {
  ReadWriteOnce: 'RWO',
  ReadOnlyMany: 'ROX',
  ReadWriteMany: 'RWX',
  ReadWriteOncePod: 'RWOP',
};

/** Access modes the way kubectl's ACCESS MODES column writes them (`RWO,RWX`). */
export const accessModes = (modes: unknown) =>
  ((modes as string[] | undefined) ?? []).map((m) => accessModeShort[m] ?? m).join(',');

/** The claims that name a PVC in a pod's volumes. */
export const claimsOf = (pod: KubeObject) =>
  ((pod.spec?.volumes as { persistentVolumeClaim?: { claimName?: string } }[] | undefined) ?? [])
    .map((v) => v.persistentVolumeClaim?.claimName)
    .filter((c): c is string => Boolean(c));

/** A Job's state as its conditions (and suspension) say, the way `kubectl get jobs` STATUS does. */
export function jobState(job: KubeObject): 'Complete' | 'Failed' | 'Suspended' | 'Running' {
  const conditions = (job.status?.conditions as { type: string; status: string }[] | undefined) ?? [];
  const holds = (type: string) => conditions.some((c) => c.type === type && c.status === 'True');
  if (holds('Complete')) return 'Complete';
  if (holds('Failed')) return 'Failed';
  if (job.spec?.suspend === true || holds('Suspended')) return 'Suspended';
  return 'Running';
}

interface MetricTarget {
  type?: string;
  averageUtilization?: number;
  averageValue?: string;
  value?: string;
}

interface MetricSpec {
  type: string;
  resource?: { name: string; target?: MetricTarget; current?: MetricTarget };
  containerResource?: { name: string; container: string; target?: MetricTarget; current?: MetricTarget };
  pods?: { metric: { name: string }; target?: MetricTarget; current?: MetricTarget };
  object?: {
    metric: { name: string };
    describedObject?: { kind?: string; name?: string };
    target?: MetricTarget;
    current?: MetricTarget;
  };
  external?: { metric: { name: string }; target?: MetricTarget; current?: MetricTarget };
}

/** A metric's source, whichever of the five kinds of metric it is. */
const sourceOf = (m: MetricSpec) => m.resource ?? m.containerResource ?? m.pods ?? m.object ?? m.external;

/** What the metric measures, in words (`cpu`, `cpu of container web`, `requests on Ingress main`). */
function metricName(m: MetricSpec): string {
  if (m.resource) return m.resource.name;
  if (m.containerResource) return `${m.containerResource.name} of container ${m.containerResource.container}`;
  if (m.pods) return `${m.pods.metric.name} (per pod)`;
  if (m.object)
    return `${m.object.metric.name} of ${m.object.describedObject?.kind ?? ''} ${m.object.describedObject?.name ?? ''}`;
  if (m.external) return `${m.external.metric.name} (external)`;
  return m.type;
}

/** A target or a current value the way `kubectl describe hpa` prints it: `70%`, `500m (average)`, `10`. */
function valueWords(v: MetricTarget | undefined): string {
  if (!v) return '<unknown>';
  if (v.averageUtilization !== undefined) return `${v.averageUtilization}%`;
  if (v.averageValue !== undefined) return `${v.averageValue} (average)`;
  return v.value ?? '<unknown>';
}

/** Each metric of an HPA with its current value (from status) beside its target (from spec). */
export function hpaMetrics(
  spec: unknown,
  status: unknown,
): { metric: string; current: string; target: string }[] {
  const wanted = (spec as MetricSpec[] | undefined) ?? [];
  const current = (status as MetricSpec[] | undefined) ?? [];
  return wanted.map((m) => {
    const name = metricName(m);
    const now = current.find((c) => c.type === m.type && metricName(c) === name);
    return {
      metric: name,
      current: valueWords(now && sourceOf(now)?.current),
      target: valueWords(sourceOf(m)?.target),
    };
  });
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A rule's cells as `kubectl describe role` reads them: the core group named, `*` kept, absent lists empty. */
export function ruleCells(rule: PolicyRule) {
  const list = (items?: string[]) => (items ?? []).join(', ');
  return {
    apiGroups: (rule.apiGroups ?? []).map((g) => (g === '' ? 'core' : g)).join(', '),
    resources: list([...(rule.resources ?? []), ...(rule.nonResourceURLs ?? [])]),
    verbs: list(rule.verbs),
    resourceNames: list(rule.resourceNames) || 'all',
  };
}

/** The size in bytes of base64 data, without decoding it (a Secret's values are never read into the page). */
export function base64Bytes(encoded: string): number {
  const padding = encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0;
  return Math.floor((encoded.length * 3) / 4) - padding;
}

/** The size in bytes of a text value in UTF-8. */
export const textBytes = (text: string) => new TextEncoder().encode(text).length;
