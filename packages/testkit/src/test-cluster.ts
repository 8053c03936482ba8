import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';
import { structuredLogFile } from './cluster/paths.ts';
import { criLine } from './cluster/pod-sim.ts';
import type { ClusterState } from './cluster/state.ts';
import { waitUntil } from './cluster/wait.ts';

/** The lock of files that bind the hub's role groups (binnacle:role:…) cluster-wide or depend on them not being bound. */
export const hubRoleBindingsLock = 'hub-role-bindings';
/** The lock of files that add Nodes to the shared cluster or count its Nodes. */
export const clusterNodesLock = 'cluster-nodes';
/**
 * The lock of files that expose a metrics store as a Service in the shared cluster (any agent would find it) or
 * depend on none being found.
 */
export const metricsStoreServiceLock = 'metrics-store-service';

export type ClusterIdentity = 'admin' | 'restricted';

export interface TestCluster {
  state: ClusterState;
  /** https://127.0.0.1:<port> */
  server: string;
  kubeconfigPath(identity?: ClusterIdentity): string;
  /** A client-node KubeConfig for the admin (system:masters) or the restricted (no rights) identity. */
  kubeConfig(identity?: ClusterIdentity): KubeConfig;
  /** Creates a uniquely named namespace; returns its name and a function that deletes it. */
  namespace(prefix: string): Promise<{ name: string; remove: () => Promise<void> }>;
  /**
   * A kubeconfig file that authenticates as a ServiceAccount (a bound token from the TokenRequest API, valid
   * an hour): what a pod of that ServiceAccount would run as, so its RBAC is the only thing that grants access.
   */
  serviceAccountKubeconfig(namespace: string, serviceAccount: string): Promise<string>;
  /**
   * Holds a named lock across the test files running at once against this cluster (a file created
   * exclusively in its state dir, which the global setup empties before a run). For cluster-wide state some
   * files change and others depend on, such as bindings for the hub's role groups. Resolves with the release.
   */
  lock(name: string, timeoutMs?: number): Promise<() => Promise<void>>;
  /**
   * Writes lines into the log the simulated containers of `structuredLogsNamespace` serve (and follow), among
   * pod-sim's running lines: each pod there shows them; the other pods' log (which other tests read) does not.
   */
  writeStructuredLog(lines: string[]): Promise<void>;
}

/**
 * The running, seeded control plane of the integration project (started once by the global setup).
 * One call gives a test everything it needs to talk to the cluster.
 */
export function testCluster(): TestCluster {
  const state = inject('binnacleCluster');
  if (!state) {
    throw new Error(
      'no control plane: integration tests (*.int.test.ts) must run in the vitest "integration" project',
    );
  }
  const kubeconfigPath = (identity: ClusterIdentity = 'admin') => state.kubeconfigs[identity];
  const kubeConfig = (identity: ClusterIdentity = 'admin') => {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath(identity));
    return kc;
  };
  return {
    state,
    server: state.server,
    kubeconfigPath,
    kubeConfig,
    async namespace(prefix) {
      const core = kubeConfig('admin').makeApiClient(CoreV1Api);
      const name = `${prefix}-${randomBytes(3).toString('hex')}`;
      await core.createNamespace({ body: { metadata: { name, labels: { 'binnacle.dev/test': 'true' } } } });
      return { name, remove: async () => void (await core.deleteNamespace({ name })) };
    },
    async lock(name, timeoutMs = 90_000) {
      const dir = join(state.stateDir, 'locks');
      await mkdir(dir, { recursive: true });
      const path = join(dir, name);
      const taken = async () => {
        try {
          await writeFile(path, String(process.pid), { flag: 'wx' });
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw error;
        }
      };
      await waitUntil(`the cluster lock ${name}`, taken, { timeoutMs, intervalMs: 100 });
      return () => rm(path, { force: true });
    },
    async writeStructuredLog(lines) {
      await appendFile(structuredLogFile(state.stateDir), lines.map((line) => criLine(line)).join(''));
    },
    async serviceAccountKubeconfig(namespace, serviceAccount) {
      const admin = kubeConfig('admin');
      const { status } = await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
        namespace,
        name: serviceAccount,
        body: { spec: { audiences: [], expirationSeconds: 3600 } },
      });
      const cluster = admin.getCurrentCluster();
      if (!status?.token || !cluster)
        throw new Error(`no token for ServiceAccount ${namespace}/${serviceAccount}`);
      const kc = new KubeConfig();
      const user = `system:serviceaccount:${namespace}:${serviceAccount}`;
      kc.loadFromOptions({
        clusters: [cluster],
        users: [{ name: user, token: status.token }],
        contexts: [{ name: user, cluster: cluster.name, user }],
        currentContext: user,
      });
      const path = join(await mkdtemp(join(tmpdir(), 'binnacle-sa-')), 'kubeconfig');
      await writeFile(path, kc.exportConfig(), { mode: 0o600 });
      return path;
    },
  };
}
