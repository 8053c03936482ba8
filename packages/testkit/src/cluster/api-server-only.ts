import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { apiserverArgs, etcdArgs } from './components.ts';
import { etcdDataDir } from './control-plane.ts';
import { clusterBinaries } from './paths.ts';
import { type ClusterPki, generatePki, identities, writeKubeconfig } from './pki.ts';
import { freePort } from './ports.ts';
import { healthy } from './probe.ts';
import { type ManagedProcess, startProcess, stopProcesses } from './processes.ts';
import { waitUntil } from './wait.ts';

const startTimeoutMs = 60_000;

/** A second, bare control plane: etcd and kube-apiserver only (no nodes, controllers or add-ons). */
export interface ApiServerOnly {
  /** https://127.0.0.1:<port> */
  server: string;
  /** An admin (system:masters) kubeconfig with everything embedded. */
  kubeconfig: string;
  pki: ClusterPki;
  /** Stops kube-apiserver (etcd keeps the data): clients see the cluster go away. */
  stopApiServer(): Promise<void>;
  /** Starts kube-apiserver again on the same port with the same flags; resolves when it answers /readyz. */
  startApiServer(): Promise<void>;
  /** Stops both and removes every file. */
  down(): Promise<void>;
}

/**
 * Starts etcd and kube-apiserver on loopback with fresh PKI in `dir`, with the same flags as the shared control
 * plane: a cluster an agent can connect to, list and watch, for tests of more than one cluster. Seconds, not
 * the shared plane's minute.
 */
export async function apiServerOnlyUp(dir: string): Promise<ApiServerOnly> {
  await mkdir(join(dir, 'logs'), { recursive: true });
  const bin = await clusterBinaries('demo');
  const ports = { etcdClient: await freePort(), etcdPeer: await freePort(), apiserver: await freePort() };
  const pki = await generatePki(join(dir, 'pki'));
  const args = { pki, ports, etcdDataDir: await etcdDataDir(dir) };
  const server = `https://127.0.0.1:${ports.apiserver}`;
  const kubeconfig = join(dir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfig, server, pki.ca.cert, pki.admin, identities.admin.user);
  const processes: ManagedProcess[] = [];
  const launch = (name: string, binary: string, argv: string[]) => {
    const proc = startProcess(name, binary, argv, join(dir, 'logs', `${name}.log`));
    processes.push(proc);
    return proc;
  };
  const startApiServer = async () => {
    const proc = launch('kube-apiserver', bin.kubeApiserver, apiserverArgs(args));
    await waitUntil('kube-apiserver', healthy(`${server}/readyz`, { ca: pki.ca.cert, client: pki.admin }), {
      timeoutMs: startTimeoutMs,
      process: proc,
    });
  };
  const down = async () => {
    await stopProcesses(processes);
    await rm(args.etcdDataDir, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const etcd = launch('etcd', bin.etcd, etcdArgs(args));
    await waitUntil('etcd', healthy(`http://127.0.0.1:${ports.etcdClient}/health`), {
      timeoutMs: startTimeoutMs,
      process: etcd,
    });
    await startApiServer();
  } catch (error) {
    await down();
    throw error;
  }
  return {
    server,
    kubeconfig,
    pki,
    async stopApiServer() {
      const running = processes.filter((p) => p.name === 'kube-apiserver');
      await stopProcesses(running);
      processes.splice(0, processes.length, ...processes.filter((p) => !running.includes(p)));
    },
    startApiServer,
    down,
  };
}
