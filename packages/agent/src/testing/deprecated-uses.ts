import { gzipSync } from 'node:zlib';
import { argoApplication, testCluster } from '@binnacle/testkit';
import {
  ApiextensionsV1Api,
  AutoscalingV2Api,
  CoreV1Api,
  CustomObjectsApi,
  PolicyV1Api,
  type V1CustomResourceDefinitionVersion,
} from '@kubernetes/client-node';

// Uses of removed API versions for the upgrade readiness tests (docs/upgrade-readiness.md): the API server no
// longer serves them, so they are planted where they survive.

const lastApplied = (manifest: object) => ({
  'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest),
});

/** A release Secret as helm stores it: the release JSON gzipped and base64'd, base64'd again by the API. */
function releaseSecret(namespace: string, name: string, manifest: string) {
  const release = {
    name,
    namespace,
    version: 3,
    info: { status: 'deployed' },
    chart: { metadata: { name, version: '0.9.0' } },
    manifest,
  };
  const encoded = gzipSync(Buffer.from(JSON.stringify(release))).toString('base64');
  return {
    metadata: {
      name: `sh.helm.release.v1.${name}.v3`,
      labels: { name, owner: 'helm', status: 'deployed', version: '3' },
    },
    type: 'helm.sh/release.v1',
    data: { release: Buffer.from(encoded).toString('base64') },
  };
}

const document = (apiVersion: string, kind: string, name: string) =>
  `---\n# Source: legacy-shop/templates/${name}.yaml\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n`;

/**
 * In `namespace`: a PodDisruptionBudget `shop-pdb` and a HorizontalPodAutoscaler `shop-hpa` served at policy/v1
 * and autoscaling/v2 whose last-applied copies name policy/v1beta1 and autoscaling/v2beta2 (as after an API server
 * upgrade converted them; created through the API, as kubectl would rewrite the copy); Helm release `legacy-shop`
 * (revision 3) rendering a batch/v1beta1 CronJob `nightly`, a networking.k8s.io/v1beta1 Ingress `shop` and an
 * apps/v1 Deployment; and an Argo CD Application `legacy-ingress` managing an extensions/v1beta1 Ingress `legacy`.
 */
export async function plantDeprecatedUses(namespace: string): Promise<void> {
  const admin = testCluster().kubeConfig('admin');
  const pdb = {
    apiVersion: 'policy/v1beta1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'shop-pdb', namespace },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'shop' } } },
  };
  const hpa = {
    apiVersion: 'autoscaling/v2beta2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'shop-hpa', namespace },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop' },
      minReplicas: 1,
      maxReplicas: 3,
    },
  };
  const manifest = [
    document('batch/v1beta1', 'CronJob', 'nightly'),
    document('networking.k8s.io/v1beta1', 'Ingress', 'shop'),
    document('apps/v1', 'Deployment', 'shop'),
  ].join('');
  await Promise.all([
    admin.makeApiClient(PolicyV1Api).createNamespacedPodDisruptionBudget({
      namespace,
      body: { ...pdb, apiVersion: 'policy/v1', metadata: { ...pdb.metadata, annotations: lastApplied(pdb) } },
    }),
    admin.makeApiClient(AutoscalingV2Api).createNamespacedHorizontalPodAutoscaler({
      namespace,
      body: {
        ...hpa,
        apiVersion: 'autoscaling/v2',
        metadata: { ...hpa.metadata, annotations: lastApplied(hpa) },
      },
    }),
    admin
      .makeApiClient(CoreV1Api)
      .createNamespacedSecret({ namespace, body: releaseSecret(namespace, 'legacy-shop', manifest) }),
    admin.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace,
      plural: 'applications',
      body: {
        ...argoApplication('legacy-ingress', namespace),
        status: {
          resources: [
            { group: 'extensions', version: 'v1beta1', kind: 'Ingress', namespace, name: 'legacy' },
            { group: 'apps', version: 'v1', kind: 'Deployment', namespace, name: 'web' },
          ],
        },
      },
    }),
  ]);
}

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

/** A namespaced CRD serving `versions`; resolves with a function that removes it. */
export async function servedCrd(
  group: string,
  plural: string,
  kind: string,
  versions: Omit<V1CustomResourceDefinitionVersion, 'schema'>[],
  annotations: Record<string, string> = {},
): Promise<() => Promise<void>> {
  const api = testCluster().kubeConfig('admin').makeApiClient(ApiextensionsV1Api);
  const name = `${plural}.${group}`;
  await api.createCustomResourceDefinition({
    body: {
      metadata: { name, annotations },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural, kind, singular: kind.toLowerCase(), listKind: `${kind}List` },
        versions: versions.map((v) => ({ ...v, schema })),
      },
    },
  });
  return async () => {
    await api.deleteCustomResourceDefinition({ name }).catch(() => undefined);
  };
}

/** `Widget` of `group` serving a deprecated v1beta1 (with a warning) beside its storage version v1. */
export const deprecatedWidgets = (group: string) =>
  servedCrd(group, 'widgets', 'Widget', [
    {
      name: 'v1beta1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: `${group}/v1beta1 Widget is deprecated; use v1`,
    },
    { name: 'v1', served: true, storage: true },
  ]);
