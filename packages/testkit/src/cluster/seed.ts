import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppsV1Api, BatchV1Api, KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { selfSignedCert } from '../self-signed.ts';
import { installCrds } from './crds.ts';
import { createMissing, type SeedObject } from './create-missing.ts';
import { fluxDemo, seedFluxDemo } from './flux.ts';
import { kubectl } from './kubectl.ts';
import { clusterBinaries, crdFiles, helmBinary, repoRoot } from './paths.ts';
import type { ClusterState } from './state.ts';
import { waitUntil } from './wait.ts';

const run = promisify(execFile);
const seedDir = join(repoRoot, 'test/cluster/seed');
/** Argo CD's and Flux's sample objects: seeded on a full control plane only, the demo's has neither's CRDs. */
const gitopsFile = '50-gitops-objects.yaml';
const fieldManager = 'binnacle-seed';

/** Namespaces and release the seed creates; tests use them as fixtures. */
export const seeded = {
  namespaces: ['demo-shop', 'demo-data', 'demo-ops', 'demo-billing', 'argocd', 'flux-system', 'flux-demo'],
  deployments: [
    { namespace: 'demo-shop', name: 'storefront' },
    { namespace: 'demo-shop', name: 'checkout' },
    { namespace: 'demo-billing', name: 'billing' },
  ],
  helmRelease: { namespace: 'demo-billing', name: 'billing', revisions: 2 },
  /** Reconciled by the real Flux controllers: helm-controller installs the Helm release flux-demo/billing. */
  flux: {
    namespace: fluxDemo.namespace,
    helmRepository: fluxDemo.helmRepository,
    helmRelease: fluxDemo.helmRelease,
  },
  tlsSecrets: [
    { namespace: 'demo-shop', name: 'storefront-tls', host: 'shop.demo.binnacle.local', days: 90 },
    { namespace: 'demo-ops', name: 'legacy-api-tls', host: 'legacy.demo.binnacle.local', days: 10 },
  ],
} as const;

interface Manifest extends SeedObject {
  spec?: {
    group?: string;
    names?: { kind: string; plural: string };
    versions?: { subresources?: { status?: object } }[];
  };
  status?: unknown;
}

async function manifestFiles(): Promise<string[]> {
  return (await readdir(seedDir))
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => join(seedDir, file));
}

async function manifests(files: string[]): Promise<Manifest[]> {
  const docs: Manifest[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
      const value = doc.toJSON() as Manifest | null;
      if (value) docs.push(value);
    }
  }
  return docs;
}

/** A self-signed serving certificate, so certificate views have a real expiry to read. */
async function tlsSecret(namespace: string, name: string, host: string, days: number): Promise<Manifest> {
  const { cert, key } = await selfSignedCert({ cn: host, san: `DNS:${host}`, days });
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
    type: 'kubernetes.io/tls',
    data: { 'tls.crt': Buffer.from(cert).toString('base64'), 'tls.key': Buffer.from(key).toString('base64') },
  };
}

/** Whether the seed's Helm release was installed by this run or found in place. */
async function installHelmRelease(state: ClusterState): Promise<'installed' | 'present'> {
  const helm = await helmBinary();
  const { namespace, name } = seeded.helmRelease;
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(state.stateDir, 'helm/cache'),
    HELM_CONFIG_HOME: join(state.stateDir, 'helm/config'),
    HELM_DATA_HOME: join(state.stateDir, 'helm/data'),
  };
  const common = ['--kubeconfig', state.kubeconfigs.admin, '--namespace', namespace];
  const history = await run(helm, ['history', name, ...common, '--output', 'json'], { env }).catch(
    () => undefined,
  );
  if (history) return 'present';
  const chart = join(repoRoot, 'test/cluster/charts/billing');
  await run(helm, ['install', name, chart, ...common, '--create-namespace'], { env });
  await run(
    helm,
    ['upgrade', name, chart, ...common, '--set', 'image.tag=3.1.1', '--set', 'config.currency=USD'],
    { env },
  );
  return 'installed';
}

type Workload = Pick<SeedObject, 'kind'> & { metadata: { name: string; namespace?: string } };

/** Throws what is not ready yet of one workload, for the wait; a status not written yet counts as not ready. */
async function workloadReady(kc: KubeConfig, workload: Workload): Promise<void> {
  const apps = kc.makeApiClient(AppsV1Api);
  const { name, namespace = 'default' } = workload.metadata;
  const what = `${workload.kind.toLowerCase()} ${namespace}/${name}`;
  switch (workload.kind) {
    case 'Deployment':
    case 'StatefulSet': {
      const object =
        workload.kind === 'Deployment'
          ? await apps.readNamespacedDeployment({ name, namespace })
          : await apps.readNamespacedStatefulSet({ name, namespace });
      if ((object.status?.readyReplicas ?? 0) < (object.spec?.replicas ?? 1)) throw new Error(what);
      return;
    }
    case 'DaemonSet': {
      const { status } = await apps.readNamespacedDaemonSet({ name, namespace });
      const want = status?.desiredNumberScheduled ?? 0;
      if (want === 0 || (status?.numberReady ?? 0) < want) throw new Error(what);
      return;
    }
    case 'Job': {
      const job = await kc.makeApiClient(BatchV1Api).readNamespacedJob({ name, namespace });
      if (!job.status?.succeeded) throw new Error(what);
      return;
    }
  }
}

const workloadKinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

/**
 * Waits for the workloads this run created, and for no others: a re-run on a used cluster must not wait for, or
 * fail on, workloads of the user's own or ones the user changed since.
 */
async function waitForWorkloads(kc: KubeConfig, workloads: Workload[]): Promise<void> {
  const pending = workloads.filter((workload) => workloadKinds.has(workload.kind));
  await waitUntil(
    'seeded workloads Ready',
    async () => {
      const notReady: string[] = [];
      for (const workload of pending) {
        await workloadReady(kc, workload).catch((error: Error) => notReady.push(error.message));
      }
      if (notReady.length > 0) throw new Error(`not ready: ${notReady.join(', ')}`);
      return true;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

/** One line per namespace of what was present already, so a re-run says what it did not touch. */
function presentLines(present: SeedObject[]): string[] {
  const byNamespace = new Map<string, string[]>();
  for (const object of present) {
    const key = object.metadata.namespace ?? '(cluster)';
    byNamespace.set(key, [...(byNamespace.get(key) ?? []), `${object.kind} ${object.metadata.name}`]);
  }
  return [...byNamespace].map(([namespace, names]) => `  ${namespace}: ${names.join(', ')}`);
}

/**
 * Applies the CRDs; creates the sample workloads, the TLS Secrets and, on a full control plane, the GitOps objects
 * with their statuses and the Flux reconcile; installs the Helm release with a real helm binary; waits until what it
 * created runs. Only what is missing is created: an object that exists is left as it is, so a re-run never undoes a
 * change made since (ADR 0059); the CRDs are the kinds' schema and always applied (ADR 0063).
 */
export async function seedCluster(
  state: ClusterState,
  log: (line: string) => void = () => {},
): Promise<void> {
  // The GitOps CRDs and controllers come with the full profile only.
  const gitops = state.profile === 'full' ? await clusterBinaries('full') : undefined;
  const { kubectl: kubectlPath } = gitops ?? (await clusterBinaries('demo'));
  const files = (await manifestFiles()).filter((file) => gitops || !file.endsWith(gitopsFile));
  // Argo CD's real CRDs, from its module (build.sh); the seed installs them with its own.
  const argocdCrdFiles = gitops ? await crdFiles(gitops.argocdCrdsDir) : [];
  const seedCrdFiles = [...files.filter((file) => file.endsWith('-crds.yaml')), ...argocdCrdFiles];
  const clusterFiles = files.filter((file) => file.endsWith('-cluster.yaml'));
  const rest = await manifests(
    files.filter((file) => !seedCrdFiles.includes(file) && !clusterFiles.includes(file)),
  );
  const crds = await manifests(seedCrdFiles);
  // CRDs and namespaces first: the API server must serve a kind before objects of it can be created. The CRDs are
  // applied, also where they exist: they are the kinds' schema, not data of the user's (ADR 0063).
  const [, firstResult] = await Promise.all([
    installCrds(state, kubectlPath, seedCrdFiles, fieldManager),
    createMissing(state, kubectlPath, await manifests(clusterFiles)),
  ]);
  const secrets = await Promise.all(
    seeded.tlsSecrets.map((s) => tlsSecret(s.namespace, s.name, s.host, s.days)),
  );
  const restResult = await createMissing(state, kubectlPath, [...rest, ...secrets]);
  const created = [...firstResult.created, ...restResult.created];
  const present = [...firstResult.present, ...restResult.present];
  // Flux's real CRDs come with the controllers (cluster:up installs them); the seed only reads them.
  const fluxCrds = gitops ? await manifests(await crdFiles(gitops.fluxCrdsDir)) : [];
  // A CRD with a status subresource ignores status in the object body; set it through the subresource, on the
  // objects this run created only.
  const statusKinds = new Map(
    [...crds, ...fluxCrds]
      .filter((crd) => crd.spec?.versions?.some((version) => version.subresources?.status))
      .map((crd) => [crd.spec?.names?.kind, `${crd.spec?.names?.plural}.${crd.spec?.group}`]),
  );
  for (const doc of restResult.created) {
    const resource = statusKinds.get(doc.kind);
    if (!resource || !doc.status) continue;
    await kubectl(state, kubectlPath, [
      'patch',
      resource,
      doc.metadata.name,
      '-n',
      doc.metadata.namespace ?? 'default',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: doc.status }),
    ]);
  }
  log(`applied ${crds.length} CustomResourceDefinitions; created ${created.length} objects`);
  if (present.length > 0) {
    log(
      `left ${present.length} objects that exist already as they are:\n${presentLines(present).join('\n')}`,
    );
  }
  const kc = new KubeConfig();
  kc.loadFromFile(state.kubeconfigs.admin);
  const release = `${seeded.helmRelease.namespace}/${seeded.helmRelease.name}`;
  // The helm binary's release and helm-controller's are independent: install both at once.
  const [helm] = await Promise.all([
    installHelmRelease(state).then((outcome) => {
      log(
        outcome === 'installed'
          ? `helm release ${release} installed`
          : `helm release ${release} exists, left as it is`,
      );
      return outcome;
    }),
    gitops &&
      seedFluxDemo(state, kubectlPath, kc).then((outcome) =>
        log(
          outcome === 'installed'
            ? `HelmRelease ${fluxDemo.namespace}/${fluxDemo.helmRelease} Ready (installed by helm-controller)`
            : `HelmRelease ${fluxDemo.namespace}/${fluxDemo.helmRelease} exists, left as it is`,
        ),
      ),
  ]);
  const billing = seeded.deployments.find((d) => d.namespace === seeded.helmRelease.namespace);
  const helmWorkloads: Workload[] =
    helm === 'installed' && billing ? [{ kind: 'Deployment', metadata: billing }] : [];
  await waitForWorkloads(kc, [...created, ...helmWorkloads]);
  log(
    created.length + helmWorkloads.length > 0
      ? 'the seeded workloads it created are Ready'
      : 'nothing to create',
  );
}
