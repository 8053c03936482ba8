import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root, found from this file's location (packages/testkit/src/cluster). */
export const repoRoot = resolve(import.meta.dirname, '../../../..');

/** Where a control plane keeps its PKI, kubeconfigs, logs and process table. */
export function defaultStateDir(): string {
  return resolve(process.env.BINNACLE_CLUSTER_DIR ?? join(repoRoot, '.cluster'));
}

/** The CRI-format file kwok serves as every simulated container's log, which pod-sim appends to. */
export const containerLogFile = (stateDir: string): string => join(stateDir, 'pods', 'current.log');
/** The log the containers of `structuredLogsNamespace` serve (kwok-config.ts). */
export const structuredLogFile = (stateDir: string): string => join(stateDir, 'pods', 'structured.log');

/**
 * What a control plane runs: `demo` (what `npm start` needs — Kubernetes, kwok, metrics-server) or `full` (also the
 * registry, the Flux controllers and the GitOps CRDs the tests use). ADR 0059.
 */
export type ClusterProfile = 'demo' | 'full';

/** The binaries of the demo profile. */
export interface ClusterBinaries {
  dir: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
  etcd: string;
  kwok: string;
  kwokStagesDir: string;
  /** kwok's namespaced PortForward CRD, served so a test can forward one pod's port to its own server. */
  kwokCrdsDir: string;
  metricsServer: string;
}

/** The full profile adds the OCI chart registry, the Flux controllers and the GitOps CRDs. */
export interface FullClusterBinaries extends ClusterBinaries {
  registry: string;
  sourceController: string;
  kustomizeController: string;
  helmController: string;
  /** The CRDs of the three Flux controllers, from their module zips. */
  fluxCrdsDir: string;
  /** Argo CD's Application and AppProject CRDs, from its module zip (its controller is not built). */
  argocdCrdsDir: string;
  /**
   * The real CRDs of the ecosystem projects' kinds (packages/common/src/ecosystem.ts), from their module zips, one
   * folder per integration id (ADR 0127).
   */
  ecosystemCrdsDir: string;
  /** Karpenter's NodePool, NodeClaim and KWOKNodeClass CRDs, a folder of `ecosystemCrdsDir`. */
  karpenterCrdsDir: string;
  /** Karpenter with its kwok cloud provider (ADR 0127). */
  karpenter: string;
}

/** The CRD files build.sh copied into one of its CRD directories (and its folders), in a stable order. */
export async function crdFiles(crdsDir: string): Promise<string[]> {
  return (await readdir(crdsDir, { recursive: true }))
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => join(crdsDir, file));
}

/** Builds the Go binaries of a profile on first use (cached by go.sum) and returns their paths. */
export async function clusterBinaries(profile: 'demo'): Promise<ClusterBinaries>;
export async function clusterBinaries(profile?: 'full'): Promise<FullClusterBinaries>;
export async function clusterBinaries(
  profile: ClusterProfile,
): Promise<ClusterBinaries | FullClusterBinaries>;
export async function clusterBinaries(
  profile: ClusterProfile = 'full',
): Promise<ClusterBinaries | FullClusterBinaries> {
  const script = join(repoRoot, 'test/cluster/build.sh');
  const { stdout } = await run('bash', [script, profile], { maxBuffer: 1 << 20, env: process.env }).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(`building the local control plane failed: ${error.stderr?.trim() || error.message}`);
    },
  );
  const dir = stdout.trim().split('\n').at(-1) ?? '';
  const demo: ClusterBinaries = {
    dir,
    kubeApiserver: join(dir, 'kube-apiserver'),
    kubeControllerManager: join(dir, 'kube-controller-manager'),
    kubeScheduler: join(dir, 'kube-scheduler'),
    kubectl: join(dir, 'kubectl'),
    etcd: join(dir, 'etcd'),
    kwok: join(dir, 'kwok'),
    kwokStagesDir: join(dir, 'kwok-stages'),
    kwokCrdsDir: join(dir, 'kwok-crds'),
    metricsServer: join(dir, 'metrics-server'),
  };
  const binaries: ClusterBinaries | FullClusterBinaries =
    profile === 'demo'
      ? demo
      : {
          ...demo,
          registry: join(dir, 'registry'),
          sourceController: join(dir, 'source-controller'),
          kustomizeController: join(dir, 'kustomize-controller'),
          helmController: join(dir, 'helm-controller'),
          fluxCrdsDir: join(dir, 'flux-crds'),
          argocdCrdsDir: join(dir, 'argocd-crds'),
          ecosystemCrdsDir: join(dir, 'ecosystem-crds'),
          karpenterCrdsDir: join(dir, 'ecosystem-crds', 'karpenter'),
          karpenter: join(dir, 'karpenter'),
        };
  for (const path of Object.values(binaries)) {
    if (!existsSync(path)) throw new Error(`test/cluster/build.sh reported ${dir}, but ${path} is missing`);
  }
  return binaries;
}

/** The helm binary shipped in an npm package (see test/cluster/helm.sh). */
export async function helmBinary(): Promise<string> {
  const { stdout } = await run('bash', [join(repoRoot, 'test/cluster/helm.sh')], { maxBuffer: 1 << 20 });
  return stdout.trim().split('\n').at(-1) ?? '';
}

/** schemathesis's `st` command in its pinned virtual environment (see test/fuzz/schemathesis.sh). */
export async function schemathesisBinary(): Promise<string> {
  const { stdout } = await run('bash', [join(repoRoot, 'test/fuzz/schemathesis.sh')], { maxBuffer: 1 << 20 });
  return stdout.trim().split('\n').at(-1) ?? '';
}
