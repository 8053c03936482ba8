import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChartSources } from './chart-sources.ts';
import type { ClusterProfile } from './paths.ts';
import type { ClusterPki } from './pki.ts';
import type { ManagedProcess } from './processes.ts';

export interface ClusterPorts {
  etcdClient: number;
  etcdPeer: number;
  apiserver: number;
  controllerManager: number;
  scheduler: number;
  kwok: number;
  podSim: number;
  metricsServer: number;
  chartRepo: number;
  registry: number;
  sourceControllerMetrics: number;
  sourceControllerHealth: number;
  sourceControllerStorage: number;
  kustomizeControllerMetrics: number;
  kustomizeControllerHealth: number;
  helmControllerMetrics: number;
  helmControllerHealth: number;
  karpenterMetrics: number;
  karpenterHealth: number;
}

/** What `cluster:up` leaves in `<stateDir>/state.json`, so `down`, `status` and tests can find the cluster. */
export interface ClusterState {
  /** Bumped when the processes a cluster runs change; a running cluster of another version is replaced. */
  version: typeof stateVersion;
  stateDir: string;
  /** What runs: the demo's components only, or also the registry and Flux (ADR 0059). */
  profile: ClusterProfile;
  server: string;
  kubernetesVersion: string;
  ports: ClusterPorts;
  etcdDataDir: string;
  kubeconfigs: { admin: string; restricted: string };
  /** The API server's audit log: the requests of ServiceAccounts in `auditedNamespace` (components.ts). */
  auditLog: string;
  pki: ClusterPki;
  processes: ManagedProcess[];
  nodes: string[];
  /** The Helm chart sources: a classic repository and, in the full profile, an OCI registry with the same charts. */
  chartSources: ChartSources;
  startedAt: string;
  ready: boolean;
}

/**
 * 2: metrics-server joined the control plane; 3: the chart sources (chart repository and registry); 4: Flux's
 * source-, kustomize- and helm-controller with their CRDs; 5: the profile (demo or full); 6: the API server's
 * audit log; 7: the ecosystem projects' CRDs; 8: Karpenter with its kwok provider (ADR 0127).
 */
export const stateVersion = 9;

export const stateFile = (stateDir: string) => join(stateDir, 'state.json');

export async function readState(stateDir: string): Promise<ClusterState | undefined> {
  try {
    return JSON.parse(await readFile(stateFile(stateDir), 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}

/** Written after every started process, so a half-started cluster can still be stopped. */
export async function writeState(state: ClusterState): Promise<void> {
  await mkdir(state.stateDir, { recursive: true });
  const path = stateFile(state.stateDir);
  await writeFile(`${path}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}

export async function removeState(stateDir: string): Promise<void> {
  await rm(stateFile(stateDir), { force: true });
}
