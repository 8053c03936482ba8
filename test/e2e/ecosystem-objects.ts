import {
  approved,
  certificate,
  certificateRequest,
  ecosystemCondition,
  gateway,
  gatewayClass,
  gatewayRoute,
  issuer,
  routeStatus,
  scaledObject,
  triggerAuthentication,
} from '@binnacle/agent/testing';
import { deploymentBody, selfSignedCert } from '@binnacle/testkit';
import {
  AppsV1Api,
  AutoscalingV2Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
} from '@kubernetes/client-node';

/**
 * The topology's tests' chains of the ecosystem's real CRDs (served by the test control plane, ADR 0127), built by
 * the agent's per-kind fixture builders: the three chains the docs show, each in its namespace, with the statuses
 * their controllers write (cited per chain; no controller runs). Cluster-scoped objects are named after the
 * namespace so that files do not collide.
 */
export interface Resource {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name: string;
}

export class EcosystemObjects {
  readonly custom: CustomObjectsApi;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly autoscaling: AutoscalingV2Api;
  /** Cluster-scoped objects created, removed by `removeClusterScoped`. */
  readonly #clusterScoped: Resource[] = [];

  constructor(kc: KubeConfig) {
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.core = kc.makeApiClient(CoreV1Api);
    this.apps = kc.makeApiClient(AppsV1Api);
    this.autoscaling = kc.makeApiClient(AutoscalingV2Api);
  }

  /**
   * Creates a custom object from its apiVersion, kind and metadata, then sets its status, when it has one, through
   * the status subresource where the kind has one (the create dropped it there; Velero's kinds keep it).
   */
  async create(
    plural: string,
    body: {
      apiVersion: string;
      kind: string;
      metadata: { name: string; namespace?: string } & Record<string, unknown>;
      status?: Record<string, unknown>;
      [field: string]: unknown;
    },
  ): Promise<{ metadata: { uid: string } }> {
    const [group = '', version = ''] = body.apiVersion.split('/');
    const { namespace, name } = body.metadata;
    const resource = { group, version, plural, name, ...(namespace ? { namespace } : {}) };
    const created = (await (namespace
      ? this.custom.createNamespacedCustomObject({ group, version, plural, namespace, body })
      : this.custom.createClusterCustomObject({ group, version, plural, body }))) as {
      metadata: { uid: string; resourceVersion: string };
      status?: unknown;
    };
    if (!namespace) this.#clusterScoped.push(resource);
    if (body.status && created.status === undefined) await this.setStatus(resource, body.status);
    return created;
  }

  /** Replaces an object's status through its status subresource, as its controller does. */
  async setStatus(resource: Resource, status: Record<string, unknown>): Promise<void> {
    const { namespace, ...rest } = resource;
    const current = (await (namespace
      ? this.custom.getNamespacedCustomObject({ ...rest, namespace })
      : this.custom.getClusterCustomObject(rest))) as Record<string, unknown>;
    const body = { ...current, status };
    await (namespace
      ? this.custom.replaceNamespacedCustomObjectStatus({ ...rest, namespace, body })
      : this.custom.replaceClusterCustomObjectStatus({ ...rest, body }));
  }

  async removeClusterScoped(): Promise<void> {
    await Promise.all(
      this.#clusterScoped.map(({ namespace: _, ...r }) =>
        this.custom.deleteClusterCustomObject(r).catch(() => undefined),
      ),
    );
  }

  /** A Deployment and, when `service`, the Service selecting its pods. */
  async workload(namespace: string, name: string, service = false): Promise<void> {
    await this.apps.createNamespacedDeployment({ namespace, body: deploymentBody(name) });
    if (service)
      await this.core.createNamespacedService({
        namespace,
        body: { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } },
      });
  }
}

const condition = (type: string, status: 'True' | 'False', reason: string, message: string) =>
  ecosystemCondition(type, status, reason, message, { observedGeneration: 1 });

const gatewayGroup = 'gateway.networking.k8s.io';

/**
 * GatewayClass ← Gateway `edge` → HTTPRoute `shop` → Service `storefront`, and a second rule whose backend Service
 * `search` does not exist. Statuses as Gateway API v1.6 defines them (apis/v1/gateway_types.go,
 * httproute_types.go): the route's ResolvedRefs False with reason BackendNotFound.
 */
export async function gatewayChain(objects: EcosystemObjects, namespace: string): Promise<void> {
  const className = `${namespace}-envoy`;
  const controller = 'example.com/gateway';
  await objects.workload(namespace, 'storefront', true);
  await objects.create(
    'gatewayclasses',
    gatewayClass(className, controller, {
      conditions: [condition('Accepted', 'True', 'Accepted', 'Valid GatewayClass')],
    }),
  );
  await objects.create(
    'gateways',
    gateway('edge', namespace, className, {
      conditions: [
        condition('Accepted', 'True', 'Accepted', 'Gateway accepted'),
        condition('Programmed', 'True', 'Programmed', 'Gateway programmed'),
      ],
    }),
  );
  const parent = { group: gatewayGroup, kind: 'Gateway', name: 'edge', namespace };
  const backends = [
    { name: 'storefront', port: 80 },
    { name: 'search', port: 80, pathPrefix: '/search' },
  ];
  await objects.create(
    'httproutes',
    gatewayRoute(
      'HTTPRoute',
      'shop',
      namespace,
      'edge',
      backends,
      routeStatus(controller, parent, [
        condition('Accepted', 'True', 'Accepted', 'Route accepted'),
        condition('ResolvedRefs', 'False', 'BackendNotFound', 'Service "search" not found'),
      ]),
    ),
  );
}

/**
 * ClusterIssuer ← Certificate `storefront-tls` → its Secret, with the CertificateRequest it owns; and Certificate
 * `admin-tls` whose Issuer does not exist. Statuses as cert-manager v1.19 writes them
 * (pkg/apis/certmanager/v1/types_certificate.go, types_certificaterequest.go, types_issuer.go).
 */
export async function certificateChain(objects: EcosystemObjects, namespace: string): Promise<void> {
  const issuerName = `${namespace}-ca`;
  const issuerRef = { name: issuerName, kind: 'ClusterIssuer' } as const;
  const host = `shop.${namespace}.example`;
  const { cert, key } = await selfSignedCert({ cn: host, san: `DNS:${host}`, days: 90 });
  const ready = condition('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired');
  await objects.create(
    'clusterissuers',
    issuer(
      issuerName,
      undefined,
      { ca: { secretName: 'root-ca' } },
      { conditions: [condition('Ready', 'True', 'KeyPairVerified', 'Signing CA verified')] },
    ),
  );
  await objects.core.createNamespacedSecret({
    namespace,
    body: {
      metadata: {
        name: 'storefront-tls',
        annotations: { 'cert-manager.io/certificate-name': 'storefront-tls' },
      },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': cert, 'tls.key': key },
    },
  });
  const notAfter = new Date(Date.now() + 90 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const storefront = await objects.create(
    'certificates',
    certificate('storefront-tls', {
      namespace,
      secretName: 'storefront-tls',
      dnsNames: [host],
      issuerRef,
      status: { conditions: [ready], notAfter, revision: 1 },
    }),
  );
  await objects.create(
    'certificaterequests',
    certificateRequest(
      'storefront-tls-1',
      namespace,
      issuerRef,
      [approved, condition('Ready', 'True', 'Issued', 'Certificate fetched from issuer successfully')],
      {
        annotations: { 'cert-manager.io/certificate-name': 'storefront-tls' },
        ownerReferences: [
          {
            apiVersion: 'cert-manager.io/v1',
            kind: 'Certificate',
            name: 'storefront-tls',
            uid: storefront.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
    ),
  );
  await objects.create(
    'certificates',
    certificate('admin-tls', {
      namespace,
      secretName: 'admin-tls',
      dnsNames: [`admin.${host}`],
      issuerRef: { name: 'internal-ca', kind: 'Issuer' },
      status: {
        conditions: [
          condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist'),
        ],
      },
    }),
  );
}

/**
 * ScaledObject `worker` → Deployment `worker` and the HPA KEDA made for it (`keda-hpa-worker`, owned by it), its
 * cron trigger authenticated by TriggerAuthentication `worker-auth`. Statuses as KEDA v2.18 writes them
 * (apis/keda/v1alpha1/scaledobject_types.go, condition_types.go).
 */
export async function scaledObjectChain(objects: EcosystemObjects, namespace: string): Promise<void> {
  await objects.workload(namespace, 'worker');
  await objects.create(
    'triggerauthentications',
    triggerAuthentication('worker-auth', namespace, {
      parameter: 'token',
      name: 'worker-queue',
      key: 'token',
    }),
  );
  const cron = {
    type: 'cron',
    metadata: { timezone: 'Etc/UTC', start: '0 8 * * *', end: '0 20 * * *', desiredReplicas: '4' },
    authenticationRef: { name: 'worker-auth' },
  };
  const scaled = await objects.create(
    'scaledobjects',
    scaledObject('worker', {
      namespace,
      triggers: [cron],
      status: {
        scaleTargetKind: 'apps/v1.Deployment',
        originalReplicaCount: 1,
        hpaName: 'keda-hpa-worker',
        conditions: [
          condition(
            'Ready',
            'True',
            'ScaledObjectReady',
            'ScaledObject is defined correctly and is ready for scaling',
          ),
          condition('Active', 'True', 'ScalerActive', 'Scaling is performed because triggers are active'),
          condition('Fallback', 'False', 'NoFallbackFound', 'No fallback was found'),
          condition('Paused', 'False', 'ScaledObjectUnpaused', 'ScaledObject is not paused'),
        ],
      },
    }),
  );
  await objects.autoscaling.createNamespacedHorizontalPodAutoscaler({
    namespace,
    body: {
      metadata: {
        name: 'keda-hpa-worker',
        ownerReferences: [
          {
            apiVersion: 'keda.sh/v1alpha1',
            kind: 'ScaledObject',
            name: 'worker',
            uid: scaled.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'worker' },
        minReplicas: 1,
        maxReplicas: 10,
        metrics: [
          {
            type: 'External',
            external: {
              metric: {
                name: 's0-cron-Etc-UTC-08xxx-020xxx',
                selector: { matchLabels: { scaledobject: 'worker' } },
              },
              target: { type: 'AverageValue', averageValue: '1' },
            },
          },
        ],
      },
    },
  });
}

/**
 * Knative Service `hello` beside the core Service `hello` (with its Deployment) in one namespace: the kinds' names
 * collide. No Knative controller runs: the Service stays as written, without a status.
 */
export async function knativeBesideCoreService(objects: EcosystemObjects, namespace: string): Promise<void> {
  await objects.workload(namespace, 'hello', true);
  await objects.create('services', {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    metadata: { name: 'hello', namespace },
    spec: { template: { spec: { containers: [{ image: 'ghcr.io/knative/helloworld-go:latest' }] } } },
  });
}
