import type { KubeObject } from '@binnacle/common';
import { selectorMatcher } from '../../../kube/selectors.ts';
import { containerCheck, defineCheck, type PodView, type Problem, podCheck } from './define.ts';
import type { ContainerView } from './pod-spec.ts';
import type { AuditContext, Check } from './types.ts';
import { few, labelsOf, list, nameOf, namespaceOf, obj, str, strings } from './values.ts';

/** Names that say a value is a credential (Polaris' list and common spellings of API and private keys). */
const sensitiveName =
  /password|passwd|secret|token|bearer|credential|api[_-]?key|private[_-]?key|^azure_.+key$|^oci_cli_key_content$/i;
const privateKey = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

export const isSensitiveName = (name: string) => sensitiveName.test(name);
export const holdsPrivateKey = (value: unknown) => typeof value === 'string' && privateKey.test(value);

/** The directions a pod is isolated in: some NetworkPolicy that selects it names the direction. */
function isolatedDirections(
  labels: Record<string, string>,
  policies: readonly { spec?: unknown }[],
): Set<string> {
  const directions = new Set<string>();
  for (const policy of policies) {
    const spec = obj(policy.spec);
    if (!selectorMatcher(obj(spec.podSelector))(labels)) continue;
    const types = strings(spec.policyTypes);
    // Without policyTypes a policy isolates ingress, and egress when it has egress rules.
    const effective = types.length > 0 ? types : ['Ingress', ...(spec.egress ? ['Egress'] : [])];
    for (const type of effective) directions.add(type);
  }
  return directions;
}

function literalSecrets(c: ContainerView) {
  const names = list(c.spec.env)
    .filter(
      (env) =>
        typeof env.value === 'string' && (isSensitiveName(String(env.name)) || holdsPrivateKey(env.value)),
    )
    .map((env) => String(env.name));
  return names.length > 0 ? `sets ${few(names)} as a literal value` : undefined;
}

function configMapSecrets(configMap: KubeObject): (Problem | undefined)[] {
  const data = obj(configMap.data);
  const keys = [...Object.keys(data), ...Object.keys(obj(configMap.binaryData))].filter(isSensitiveName);
  const keyHolders = Object.keys(data).filter((key) => holdsPrivateKey(data[key]));
  return [
    keys.length > 0 ? { message: `keys look like credentials: ${few(keys)}` } : undefined,
    keyHolders.length > 0
      ? { message: `holds a private key in ${few(keyHolders)}`, severity: 'danger' }
      : undefined,
  ];
}

function tokenMounted(pod: PodView, context: AuditContext): Problem[] {
  const own = pod.spec.automountServiceAccountToken;
  if (own === false) return [];
  const name = str(pod.spec.serviceAccountName) ?? str(pod.spec.serviceAccount) ?? 'default';
  const account = context.get('ServiceAccount', namespaceOf(pod.object), name);
  if (own !== true && account?.automountServiceAccountToken === false) return [];
  return [{ message: `mounts the API token of ServiceAccount ${name}` }];
}

function networkOpen(pod: PodView, context: AuditContext): Problem[] {
  if (pod.spec.hostNetwork === true) return []; // NetworkPolicies do not apply to host-network pods
  const policies = context.list('NetworkPolicy', namespaceOf(pod.object));
  const isolated = isolatedDirections(labelsOf(pod.metadata.labels), policies);
  const open = ['Ingress', 'Egress'].filter((direction) => !isolated.has(direction));
  if (open.length === 0) return [];
  return [
    {
      message: `no NetworkPolicy restricts ${open.join(' or ').toLowerCase()} traffic of ${nameOf(pod.object)}`,
    },
  ];
}

export const securityConfigChecks: Check[] = [
  defineCheck('secretInConfigMap', ['ConfigMap'], configMapSecrets),
  containerCheck('sensitiveContainerEnvVar', 'all', literalSecrets),
  podCheck('automountServiceAccountToken', tokenMounted),
  defineCheck('tlsSettingsMissing', ['Ingress'], (ingress) => [
    list(obj(ingress.spec).tls).length === 0 ? { message: 'serves its hosts without TLS' } : undefined,
  ]),
  podCheck('missingNetworkPolicy', networkOpen),
];
