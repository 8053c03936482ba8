import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppsV1Api, BatchV1Api, KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { fluxDemo, seedFluxDemo } from './flux.ts';
import { applyArgs, kubectl } from './kubectl.ts';
import { clusterBinaries, crdFiles, helmBinary, repoRoot } from './paths.ts';
import type { ClusterState } from './state.ts';
import { waitUntil } from './wait.ts';

const run = promisify(execFile);
const seedDir = join(repoRoot, 'test/cluster/seed');
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

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: {
    group?: string;
    names?: { kind: string; plural: string };
    versions?: { subresources?: { status?: object } }[];
  };
  status?: unknown;
  [key: string]: unknown;
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
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-tls-'));
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'tls.key'),
      '-out',
      join(dir, 'tls.crt'),
      '-days',
      String(days),
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host}`,
    ]);
    const b64 = async (file: string) => (await readFile(join(dir, file))).toString('base64');
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': await b64('tls.crt'), 'tls.key': await b64('tls.key') },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const seedApply = applyArgs(fieldManager);

async function installHelmRelease(state: ClusterState): Promise<void> {
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
  if (history) return;
  const chart = join(repoRoot, 'test/cluster/charts/billing');
  await run(helm, ['install', name, chart, ...common, '--create-namespace'], { env });
  await run(
    helm,
    ['upgrade', name, chart, ...common, '--set', 'image.tag=3.1.1', '--set', 'config.currency=USD'],
    {
      env,
    },
  );
}

async function waitForWorkloads(kc: KubeConfig): Promise<void> {
  const apps = kc.makeApiClient(AppsV1Api);
  const batch = kc.makeApiClient(BatchV1Api);
  await waitUntil(
    'seeded workloads Ready',
    async () => {
      const notReady: string[] = [];
      for (const d of (await apps.listDeploymentForAllNamespaces()).items) {
        if ((d.status?.readyReplicas ?? 0) < (d.spec?.replicas ?? 1))
          notReady.push(`deployment ${d.metadata?.name}`);
      }
      for (const s of (await apps.listStatefulSetForAllNamespaces()).items) {
        if ((s.status?.readyReplicas ?? 0) < (s.spec?.replicas ?? 1))
          notReady.push(`statefulset ${s.metadata?.name}`);
      }
      for (const ds of (await apps.listDaemonSetForAllNamespaces()).items) {
        const want = ds.status?.desiredNumberScheduled ?? 0;
        if (want === 0 || (ds.status?.numberReady ?? 0) < want)
          notReady.push(`daemonset ${ds.metadata?.name}`);
      }
      for (const job of (await batch.listJobForAllNamespaces()).items) {
        if (!job.status?.succeeded) notReady.push(`job ${job.metadata?.name}`);
      }
      if (notReady.length > 0) throw new Error(`not ready: ${notReady.join(', ')}`);
      return true;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

/**
 * Applies the sample workloads (server-side apply, idempotent), the TLS Secrets, the GitOps CRDs with their
 * objects and statuses, installs the Helm release with a real helm binary, lets the Flux controllers install
 * the flux-demo release, and waits until all of it runs.
 */
export async function seedCluster(
  state: ClusterState,
  log: (line: string) => void = () => {},
): Promise<void> {
  const { kubectl: kubectlPath, fluxCrdsDir, argocdCrdsDir } = await clusterBinaries();
  const files = await manifestFiles();
  // Argo CD's real CRDs, from its module (build.sh); the seed installs them with its own.
  const argocdCrdFiles = await crdFiles(argocdCrdsDir);
  const docs = await manifests(files);
  const crds = [...docs, ...(await manifests(argocdCrdFiles))].filter(
    (doc) => doc.kind === 'CustomResourceDefinition',
  );
  // Flux's real CRDs come with the controllers (cluster:up installs them); the seed only reads them.
  const fluxCrds = await manifests(await crdFiles(fluxCrdsDir));
  const firstFiles = [...files.filter((file) => /-(cluster|crds)\.yaml$/.test(file)), ...argocdCrdFiles];
  // CRDs and namespaces first: the API server must serve a kind before objects of it can be applied.
  for (const file of firstFiles) await kubectl(state, kubectlPath, [...seedApply, '-f', file]);
  await kubectl(state, kubectlPath, [
    'wait',
    '--for=condition=Established',
    '--timeout=30s',
    ...crds.map((crd) => `crd/${crd.metadata.name}`),
  ]);
  for (const file of files.filter((f) => !firstFiles.includes(f))) {
    await kubectl(state, kubectlPath, [...seedApply, '-f', file]);
  }
  // A CRD with a status subresource ignores status in the object body; set it through the subresource.
  const statusKinds = new Map(
    [...crds, ...fluxCrds]
      .filter((crd) => crd.spec?.versions?.some((version) => version.subresources?.status))
      .map((crd) => [crd.spec?.names?.kind, `${crd.spec?.names?.plural}.${crd.spec?.group}`]),
  );
  for (const doc of docs) {
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
  const secrets = await Promise.all(
    seeded.tlsSecrets.map((s) => tlsSecret(s.namespace, s.name, s.host, s.days)),
  );
  await kubectl(
    state,
    kubectlPath,
    [...seedApply, '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: secrets }),
  );
  log(`applied ${docs.length + secrets.length} objects`);
  // The helm binary's release and helm-controller's are independent: install both at once.
  await Promise.all([
    installHelmRelease(state).then(() =>
      log(`helm release ${seeded.helmRelease.namespace}/${seeded.helmRelease.name} installed`),
    ),
    seedFluxDemo(state, kubectlPath).then(() =>
      log(`HelmRelease ${fluxDemo.namespace}/${fluxDemo.helmRelease} Ready (installed by helm-controller)`),
    ),
  ]);
  const kc = new KubeConfig();
  kc.loadFromFile(state.kubeconfigs.admin);
  await waitForWorkloads(kc);
  log('all seeded workloads Ready');
}
