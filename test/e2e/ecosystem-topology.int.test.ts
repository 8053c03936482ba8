import { karpenterNodePool, nodeClaim, startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { testCluster, waitUntil } from '@binnacle/testkit';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateChain, EcosystemObjects, gatewayChain, scaledObjectChain } from './ecosystem-objects.ts';

interface Topology {
  nodes: { id: string; kind: string; group?: string; status: string; data: Record<string, unknown> }[];
  edges: { source: string; target: string; type: string }[];
  warnings: string[];
}

// The ecosystem's real CRDs, served by the test control plane; objects created through the API server, the edges
// read from the agent's /api/topology (docs/topology.md, Ecosystem objects).
const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const objects = new EcosystemObjects(kc);
const crds = kc.makeApiClient(ApiextensionsV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
/** The composite kind of this file's own XRD: Crossplane would make its CRD, no Crossplane runs here. */
let compositeCrd: string;

const lines = (t: Topology) => t.edges.map((e) => `${e.source} -${e.type}-> ${e.target}`);
const nodeOf = (t: Topology, id: string) => t.nodes.find((n) => n.id === id);

/** The graph once every expected edge is in it: the cache sees new objects within a moment. */
async function graphWith(path: string, expected: string[]): Promise<Topology> {
  let graph: Topology = { nodes: [], edges: [], warnings: [] };
  await waitUntil(
    `the topology at ${path} with ${expected.length} edges`,
    async () => {
      graph = await agent.json<Topology>(path);
      const missing = expected.filter((e) => !lines(graph).includes(e));
      if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}`);
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  return graph;
}

beforeAll(async () => {
  [agent, ns] = await Promise.all([
    // The whole cluster drawn object by object, for the cluster-scoped Karpenter objects.
    startTestAgent({ config: { topologyMaxNodes: 100_000 } }),
    cluster.namespace('eco-topology'),
  ]);
  await Promise.all([
    gatewayChain(objects, ns.name),
    certificateChain(objects, ns.name),
    scaledObjectChain(objects, ns.name),
  ]);
});

afterAll(async () => {
  await objects.removeClusterScoped();
  if (compositeCrd) await crds.deleteCustomResourceDefinition({ name: compositeCrd }).catch(() => undefined);
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('the ecosystem in GET /api/topology, against the projects’ real CRDs', () => {
  it('Gateway API: Gateway → GatewayClass, route → Service, a missing backend a flagged placeholder', async () => {
    const n = ns.name;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `gateway/${n}/edge -uses-> gatewayclass.gateway.networking.k8s.io/${n}-envoy`,
      `gateway/${n}/edge -routes-to-> httproute/${n}/shop`,
      `httproute/${n}/shop -routes-to-> service/${n}/storefront`,
      `httproute/${n}/shop -routes-to-> service/${n}/search`,
    ]);
    expect(nodeOf(t, `service/${n}/search`)).toMatchObject({ status: 'unhealthy', data: { missing: true } });
    expect(nodeOf(t, `httproute/${n}/shop`)?.data.problems).toEqual([`Service ${n}/search does not exist`]);
    expect(nodeOf(t, `gatewayclass.gateway.networking.k8s.io/${n}-envoy`)).toMatchObject({
      kind: 'GatewayClass',
      group: 'gateway.networking.k8s.io',
      data: { controller: 'example.com/gateway' },
    });
  });

  it('cert-manager: Certificate → ClusterIssuer, its Secret and CertificateRequest; a missing Issuer flagged', async () => {
    const n = ns.name;
    const certificate = `certificate.cert-manager.io/${n}/storefront-tls`;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `${certificate} -uses-> clusterissuer.cert-manager.io/${n}-ca`,
      `${certificate} -manages-> secret/${n}/storefront-tls`,
      `${certificate} -manages-> certificaterequest.cert-manager.io/${n}/storefront-tls-1`,
      `certificate.cert-manager.io/${n}/admin-tls -uses-> issuer.cert-manager.io/${n}/internal-ca`,
    ]);
    expect(nodeOf(t, `issuer.cert-manager.io/${n}/internal-ca`)?.data.missing).toBe(true);
    expect(nodeOf(t, `certificate.cert-manager.io/${n}/admin-tls`)?.data.problems).toEqual([
      `Issuer ${n}/internal-ca does not exist`,
    ]);
  });

  it('KEDA: ScaledObject → its Deployment and the HPA KEDA made, its TriggerAuthentication → it', async () => {
    const n = ns.name;
    const scaled = `scaledobject.keda.sh/${n}/worker`;
    await graphWith(`/api/topology?namespace=${n}`, [
      `${scaled} -uses-> deployment/${n}/worker`,
      `${scaled} -manages-> horizontalpodautoscaler/${n}/keda-hpa-worker`,
      `horizontalpodautoscaler/${n}/keda-hpa-worker -uses-> deployment/${n}/worker`,
      `triggerauthentication.keda.sh/${n}/worker-auth -configures-> ${scaled}`,
    ]);
  });

  it('Karpenter: NodePool → NodeClaim → Node, in the whole cluster’s graph only', async () => {
    const n = ns.name;
    // Karpenter runs in the test control plane: a NodeClaim of its kwok NodeClass naming kwok-node-0 would have
    // that shared node drained and deleted with it.
    await objects.create('nodepools', karpenterNodePool(`${n}-pool`));
    // karpenter v1.8 pkg/apis/v1/nodeclaim_status.go: the node's name once it registered.
    await objects.create('nodeclaims', nodeClaim(`${n}-pool-a1`, { pool: `${n}-pool`, node: 'kwok-node-0' }));
    await graphWith('/api/topology', [
      `nodepool.karpenter.sh/${n}-pool -manages-> nodeclaim.karpenter.sh/${n}-pool-a1`,
      `nodeclaim.karpenter.sh/${n}-pool-a1 -manages-> node/kwok-node-0`,
    ]);
    const scoped = await agent.json<Topology>(`/api/topology?namespace=${n}`);
    expect(scoped.nodes.some((node) => node.kind === 'NodePool' || node.kind === 'NodeClaim')).toBe(false);
  });

  it('Knative Serving: Service → Configuration → Revision → Deployment, Route → its Revision, apart from the core Service', async () => {
    const n = ns.name;
    const kn = 'serving.knative.dev/v1';
    const template = { spec: { containers: [{ image: 'ghcr.io/knative/helloworld-go:latest' }] } };
    const service = await objects.create('services', {
      apiVersion: kn,
      kind: 'Service',
      metadata: { name: 'hello', namespace: n },
      spec: { template },
    });
    const owner = (kind: string, name: string, uid: string) => [
      { apiVersion: kn, kind, name, uid, controller: true, blockOwnerDeletion: true },
    ];
    const labels = { 'serving.knative.dev/service': 'hello' };
    const configuration = await objects.create('configurations', {
      apiVersion: kn,
      kind: 'Configuration',
      metadata: {
        name: 'hello',
        namespace: n,
        labels,
        ownerReferences: owner('Service', 'hello', service.metadata.uid),
      },
      spec: { template },
    });
    const revision = await objects.create('revisions', {
      apiVersion: kn,
      kind: 'Revision',
      metadata: {
        name: 'hello-00001',
        namespace: n,
        labels: { ...labels, 'serving.knative.dev/configuration': 'hello' },
        ownerReferences: owner('Configuration', 'hello', configuration.metadata.uid),
      },
      spec: template.spec,
    });
    // serving v0.47 pkg/apis/serving/v1/route_types.go: status.traffic names the revisions traffic goes to.
    await objects.create('routes', {
      apiVersion: kn,
      kind: 'Route',
      metadata: {
        name: 'hello',
        namespace: n,
        labels,
        ownerReferences: owner('Service', 'hello', service.metadata.uid),
      },
      spec: { traffic: [{ configurationName: 'hello', latestRevision: true, percent: 100 }] },
      status: {
        url: `http://hello.${n}.example.com`,
        traffic: [{ revisionName: 'hello-00001', latestRevision: true, percent: 100 }],
      },
    });
    await objects.apps.createNamespacedDeployment({
      namespace: n,
      body: {
        metadata: {
          name: 'hello-00001-deployment',
          ownerReferences: owner('Revision', 'hello-00001', revision.metadata.uid),
        },
        spec: {
          selector: { matchLabels: { app: 'hello-00001' } },
          template: {
            metadata: { labels: { app: 'hello-00001' } },
            spec: { containers: [{ name: 'user-container', image: 'hello:1' }] },
          },
        },
      },
    });
    await objects.core.createNamespacedService({
      namespace: n,
      body: { metadata: { name: 'hello' }, spec: { type: 'ExternalName', externalName: 'kourier.example' } },
    });
    const knative = (kind: string, name: string) => `${kind}.serving.knative.dev/${n}/${name}`;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `${knative('service', 'hello')} -manages-> ${knative('configuration', 'hello')}`,
      `${knative('service', 'hello')} -manages-> ${knative('route', 'hello')}`,
      `${knative('configuration', 'hello')} -manages-> ${knative('revision', 'hello-00001')}`,
      `${knative('revision', 'hello-00001')} -manages-> deployment/${n}/hello-00001-deployment`,
      `${knative('route', 'hello')} -routes-to-> ${knative('revision', 'hello-00001')}`,
    ]);
    expect(nodeOf(t, `service/${n}/hello`)?.group).toBeUndefined();
    expect(nodeOf(t, knative('service', 'hello'))?.group).toBe('serving.knative.dev');
  });

  it('Crossplane: a composite of the kind its XRD defines → what it composes, and its Composition', async () => {
    const n = ns.name;
    const group = `${n}.binnacle.test`;
    compositeCrd = `xdatabases.${group}`;
    // What Crossplane v2.1 makes of a v2 XRD (internal/controller/apiextensions/definition): a namespaced CRD.
    await crds.createCustomResourceDefinition({
      body: {
        metadata: { name: compositeCrd },
        spec: {
          group,
          names: {
            kind: 'XDatabase',
            plural: 'xdatabases',
            singular: 'xdatabase',
            listKind: 'XDatabaseList',
          },
          scope: 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
            },
          ],
        },
      },
    });
    await objects.create('compositeresourcedefinitions', {
      apiVersion: 'apiextensions.crossplane.io/v2',
      kind: 'CompositeResourceDefinition',
      metadata: { name: compositeCrd },
      spec: {
        group,
        names: { kind: 'XDatabase', plural: 'xdatabases' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1', served: true, referenceable: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    });
    await objects.create('compositions', {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'Composition',
      metadata: { name: `${n}-postgres` },
      spec: {
        compositeTypeRef: { apiVersion: `${group}/v1`, kind: 'XDatabase' },
        mode: 'Pipeline',
        pipeline: [{ step: 'compose', functionRef: { name: 'function-patch-and-transform' } }],
      },
    });
    await objects.core.createNamespacedConfigMap({
      namespace: n,
      body: { metadata: { name: 'orders-db-config' } },
    });
    await waitUntil(
      'the XDatabase kind served',
      async () => {
        await objects.custom.listNamespacedCustomObject({
          group,
          version: 'v1',
          plural: 'xdatabases',
          namespace: n,
        });
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    // Crossplane v2.1 apis/apiextensions/v2 (composite resources): what it composed under spec.crossplane.
    await objects.create('xdatabases', {
      apiVersion: `${group}/v1`,
      kind: 'XDatabase',
      metadata: { name: 'orders', namespace: n },
      spec: {
        crossplane: {
          compositionRef: { name: `${n}-postgres` },
          resourceRefs: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'orders-db-config' },
            { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'orders-db' },
          ],
        },
      },
    });
    const composite = `xdatabase.${group}/${n}/orders`;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `${composite} -manages-> configmap/${n}/orders-db-config`,
      `${composite} -manages-> statefulset/${n}/orders-db`,
      `${composite} -uses-> composition.apiextensions.crossplane.io/${n}-postgres`,
    ]);
    expect(nodeOf(t, composite)?.data.problems).toEqual([`StatefulSet ${n}/orders-db does not exist`]);
  });

  it('Kyverno: ClusterPolicy → PolicyReport → the object it names, which counts its results by outcome, an all-passed report too', async () => {
    const n = ns.name;
    await objects.create('clusterpolicies', {
      apiVersion: 'kyverno.io/v1',
      kind: 'ClusterPolicy',
      metadata: { name: `${n}-require-limits` },
      spec: {
        validationFailureAction: 'Audit',
        background: true,
        rules: [
          {
            name: 'limits',
            match: { any: [{ resources: { kinds: ['Deployment'] } }] },
            validate: {
              message: 'limits are required',
              pattern: {
                spec: { template: { spec: { containers: [{ resources: { limits: { memory: '?*' } } }] } } },
              },
            },
          },
        ],
      },
    });
    // kyverno v1.19 api/policyreport/v1alpha2: one report per object, its `scope` the object, `results` top level.
    const result = (outcome: string) => ({
      policy: `${n}-require-limits`,
      rule: 'limits',
      result: outcome,
      source: 'kyverno',
      scored: true,
      message: outcome === 'pass' ? 'validation rule passed' : 'limits are required',
      timestamp: { seconds: Math.floor(Date.now() / 1000), nanos: 0 },
    });
    await objects.create('policyreports', {
      apiVersion: 'wgpolicyk8s.io/v1alpha2',
      kind: 'PolicyReport',
      metadata: { name: 'worker-report', namespace: n },
      scope: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: n, name: 'worker' },
      results: [result('fail')],
      summary: { pass: 0, fail: 1, warn: 0, error: 0, skip: 0 },
    });
    // A report whose results all passed is drawn too, its passes counted on the object (ADR 0130).
    await objects.create('policyreports', {
      apiVersion: 'wgpolicyk8s.io/v1alpha2',
      kind: 'PolicyReport',
      metadata: { name: 'worker-passed', namespace: n },
      scope: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: n, name: 'worker' },
      results: [result('pass'), result('pass')],
      summary: { pass: 2, fail: 0, warn: 0, error: 0, skip: 0 },
    });
    const report = `policyreport.wgpolicyk8s.io/${n}/worker-report`;
    const passed = `policyreport.wgpolicyk8s.io/${n}/worker-passed`;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `clusterpolicy.kyverno.io/${n}-require-limits -configures-> ${report}`,
      `${report} -configures-> deployment/${n}/worker`,
      `clusterpolicy.kyverno.io/${n}-require-limits -configures-> ${passed}`,
      `${passed} -configures-> deployment/${n}/worker`,
    ]);
    expect(nodeOf(t, `deployment/${n}/worker`)?.data.policyResults).toEqual({
      pass: 2,
      fail: 1,
      warn: 0,
      error: 0,
    });
  });

  it('Velero: Schedule → Backup, Restore → Backup, their storage location, with phase and namespaces', async () => {
    const n = ns.name;
    const v = 'velero.io/v1';
    await objects.create('backupstoragelocations', {
      apiVersion: v,
      kind: 'BackupStorageLocation',
      metadata: { name: 'default', namespace: n },
      spec: { provider: 'aws', objectStorage: { bucket: 'backups' } },
    });
    await objects.create('schedules', {
      apiVersion: v,
      kind: 'Schedule',
      metadata: { name: 'nightly', namespace: n },
      spec: {
        schedule: '0 1 * * *',
        template: { includedNamespaces: ['demo-shop'], storageLocation: 'default' },
      },
    });
    // velero v1.18 pkg/apis/velero/v1/backup_types.go: phase Completed once uploaded.
    await objects.create('backups', {
      apiVersion: v,
      kind: 'Backup',
      metadata: {
        name: 'nightly-20261129010000',
        namespace: n,
        labels: { 'velero.io/schedule-name': 'nightly' },
      },
      spec: { includedNamespaces: ['demo-shop'], storageLocation: 'default' },
      status: { phase: 'Completed' },
    });
    await objects.create('restores', {
      apiVersion: v,
      kind: 'Restore',
      metadata: { name: 'from-weekly', namespace: n },
      spec: { backupName: 'weekly-20261122' },
    });
    const backup = `backup.velero.io/${n}/nightly-20261129010000`;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `schedule.velero.io/${n}/nightly -manages-> ${backup}`,
      `${backup} -uses-> backupstoragelocation.velero.io/${n}/default`,
      `restore.velero.io/${n}/from-weekly -uses-> backup.velero.io/${n}/weekly-20261122`,
    ]);
    expect(nodeOf(t, backup)?.data).toMatchObject({ phase: 'Completed', namespaces: ['demo-shop'] });
    expect(nodeOf(t, `backup.velero.io/${n}/weekly-20261122`)?.data.missing).toBe(true);
  });

  it('CloudNativePG: Cluster → its Services, Backups and ScheduledBackups, apart from Velero’s Backup kind', async () => {
    const n = ns.name;
    const pg = 'postgresql.cnpg.io/v1';
    const cnpg = await objects.create('clusters', {
      apiVersion: pg,
      kind: 'Cluster',
      metadata: { name: 'orders', namespace: n },
      spec: { instances: 2, storage: { size: '1Gi' } },
    });
    const ownerReferences = [
      {
        apiVersion: pg,
        kind: 'Cluster',
        name: 'orders',
        uid: cnpg.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
    for (const suffix of ['rw', 'ro', 'r'])
      await objects.core.createNamespacedService({
        namespace: n,
        body: {
          metadata: { name: `orders-${suffix}`, ownerReferences },
          spec: { selector: { 'cnpg.io/cluster': 'orders' }, ports: [{ port: 5432 }] },
        },
      });
    await objects.create('scheduledbackups', {
      apiVersion: pg,
      kind: 'ScheduledBackup',
      metadata: { name: 'daily', namespace: n },
      spec: { schedule: '0 0 0 * * *', cluster: { name: 'orders' } },
    });
    await objects.create('backups', {
      apiVersion: pg,
      kind: 'Backup',
      metadata: { name: 'daily-20261129', namespace: n, labels: { 'cnpg.io/scheduled-backup': 'daily' } },
      spec: { cluster: { name: 'orders' } },
    });
    const cluster = `cluster.postgresql.cnpg.io/${n}/orders`;
    await graphWith(`/api/topology?namespace=${n}`, [
      `${cluster} -manages-> service/${n}/orders-rw`,
      `${cluster} -manages-> service/${n}/orders-ro`,
      `${cluster} -manages-> service/${n}/orders-r`,
      `backup.postgresql.cnpg.io/${n}/daily-20261129 -protects-> ${cluster}`,
      `scheduledbackup.postgresql.cnpg.io/${n}/daily -protects-> ${cluster}`,
      `scheduledbackup.postgresql.cnpg.io/${n}/daily -manages-> backup.postgresql.cnpg.io/${n}/daily-20261129`,
    ]);
  });

  it('Istio: VirtualService → its hosts’ Services, DestinationRule → its Service with its subsets', async () => {
    const n = ns.name;
    const net = 'networking.istio.io/v1';
    await objects.create('virtualservices', {
      apiVersion: net,
      kind: 'VirtualService',
      metadata: { name: 'storefront', namespace: n },
      spec: {
        hosts: ['storefront'],
        http: [
          {
            route: [
              { destination: { host: 'storefront', subset: 'v1' }, weight: 90 },
              { destination: { host: `storefront-canary.${n}.svc.cluster.local` }, weight: 10 },
            ],
          },
        ],
      },
    });
    await objects.create('destinationrules', {
      apiVersion: net,
      kind: 'DestinationRule',
      metadata: { name: 'storefront', namespace: n },
      spec: {
        host: `storefront.${n}.svc.cluster.local`,
        subsets: [{ name: 'v1', labels: { app: 'storefront' } }],
      },
    });
    const vs = `virtualservice.networking.istio.io/${n}/storefront`;
    const rule = `destinationrule.networking.istio.io/${n}/storefront`;
    const t = await graphWith(`/api/topology?namespace=${n}`, [
      `${vs} -routes-to-> service/${n}/storefront`,
      `${vs} -routes-to-> service/${n}/storefront-canary`,
      `${rule} -configures-> service/${n}/storefront`,
    ]);
    expect(nodeOf(t, vs)?.data.problems).toEqual([`Service ${n}/storefront-canary does not exist`]);
    expect(nodeOf(t, rule)?.data.subsets).toEqual([{ name: 'v1', labels: { app: 'storefront' }, pods: 1 }]);
  });

  it('draws a past moment’s ecosystem objects as they were (time travel)', async () => {
    const n = ns.name;
    const at = new Date().toISOString();
    await objects.custom.deleteNamespacedCustomObject({
      group: 'keda.sh',
      version: 'v1alpha1',
      plural: 'scaledobjects',
      namespace: n,
      name: 'worker',
    });
    const scaled = `scaledobject.keda.sh/${n}/worker`;
    await waitUntil(
      'the ScaledObject gone from the live graph',
      async () =>
        !(await agent.json<Topology>(`/api/topology?namespace=${n}`)).nodes.some((x) => x.id === scaled),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const past = await agent.json<Topology>(`/api/topology?namespace=${n}&at=${encodeURIComponent(at)}`);
    expect(lines(past)).toContain(`${scaled} -uses-> deployment/${n}/worker`);
  });
});
