import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chartSources, publishCharts, registryConfig } from './chart-sources.ts';
import {
  apiserverArgs,
  auditPolicy,
  type ComponentArgs,
  controllerManagerArgs,
  etcdArgs,
  kwokArgs,
  metricsServerArgs,
  schedulerArgs,
} from './components.ts';
import { installCrds } from './crds.ts';
import { type Launch, startFluxControllers } from './flux.ts';
import { startKarpenter } from './karpenter.ts';
import { writeKwokConfig } from './kwok-config.ts';
import { registerMetricsApi } from './metrics-api.ts';
import { createSimulatedNodes } from './nodes.ts';
import {
  type ClusterBinaries,
  type ClusterProfile,
  clusterBinaries,
  containerLogFile,
  crdFiles,
  defaultStateDir,
  type FullClusterBinaries,
  repoRoot,
  structuredLogFile,
} from './paths.ts';
import { generatePki, identities, writeKubeconfig } from './pki.ts';
import { criLine } from './pod-sim.ts';
import { freePort } from './ports.ts';
import { healthy } from './probe.ts';
import { isAlive, startProcess, stopProcesses } from './processes.ts';
import { type ClusterState, readState, removeState, stateVersion, writeState } from './state.ts';
import { waitUntil } from './wait.ts';

export interface ClusterUpOptions {
  stateDir?: string;
  /** Simulated nodes; default from BINNACLE_CLUSTER_NODES, else 3. */
  nodes?: number;
  /** Progress lines go here (the CLI prints them; tests stay quiet). */
  log?: (line: string) => void;
  /**
   * Run metrics-server (default true). Its scrapes make kwok evaluate every pod's usage each 15 s, which at
   * 50 000 pods takes kwok's CPU and leaves pods Pending for an hour: the largest benchmarks go without.
   */
  metricsServer?: boolean;
  /** `demo` runs Kubernetes, kwok and metrics-server only (`npm start`); `full` (default) all (ADR 0059). */
  profile?: ClusterProfile;
}

export const apiserverTimeoutMs = 120_000;
export const componentTimeoutMs = 60_000;

export function nodeCountFromEnv(): number {
  const raw = process.env.BINNACLE_CLUSTER_NODES;
  if (raw === undefined || raw === '') return 3;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 500) {
    throw new Error(`BINNACLE_CLUSTER_NODES must be a whole number from 1 to 500, got "${raw}"`);
  }
  return count;
}

async function kubernetesVersion(): Promise<string> {
  const goMod = await readFile(join(repoRoot, 'test/cluster/go/k8s/go.mod'), 'utf8');
  return /^require k8s\.io\/kubernetes (v[\d.]+)/m.exec(goMod)?.[1] ?? 'unknown';
}

export async function etcdDataDir(stateDir: string): Promise<string> {
  // etcd fsyncs constantly; tmpfs keeps a 2-core machine responsive.
  const base = existsSync('/dev/shm') ? '/dev/shm' : stateDir;
  const dir = join(base, `binnacle-etcd-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** True when the state dir describes a cluster whose processes all still run. */
export function isRunning(state: ClusterState | undefined): state is ClusterState {
  return Boolean(
    state?.ready &&
      state.version === stateVersion &&
      state.processes.length > 0 &&
      state.processes.every((proc) => isAlive(proc)),
  );
}

/**
 * Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, metrics-server (registered as
 * metrics.k8s.io) and the classic chart repository on 127.0.0.1 with fresh PKI; the full profile also Flux's
 * source-, kustomize- and helm-controller (with their CRDs; they reconcile only objects labelled
 * `binnacle.dev/flux=reconcile`), the OCI registry (charts published to both sources) and the ecosystem projects'
 * real CRDs (ADR 0127). Then simulated nodes,
 * and waits until every piece answers. Idempotent: a running cluster, of either profile, is returned as is.
 */
export async function clusterUp(options: ClusterUpOptions = {}): Promise<ClusterState> {
  const stateDir = options.stateDir ?? defaultStateDir();
  const log = options.log ?? (() => {});
  const existing = await readState(stateDir);
  if (isRunning(existing)) {
    log(`control plane (${existing.profile}) already running at ${existing.server}`);
    return existing;
  }
  if (existing) await clusterDown({ stateDir });
  const nodeCount = options.nodes ?? nodeCountFromEnv();
  const profile = options.profile ?? 'full';
  const started = Date.now();
  const full = profile === 'full' ? await clusterBinaries('full') : undefined;
  const bin: ClusterBinaries = full ?? (await clusterBinaries('demo'));
  log(`binaries ready in ${bin.dir} (${((Date.now() - started) / 1000).toFixed(1)}s)`);

  const logsDir = join(stateDir, 'logs');
  const podsDir = join(stateDir, 'pods');
  await mkdir(logsDir, { recursive: true });
  await mkdir(join(podsDir, 'root'), { recursive: true });
  const ports = {
    etcdClient: await freePort(),
    etcdPeer: await freePort(),
    apiserver: await freePort(),
    controllerManager: await freePort(),
    scheduler: await freePort(),
    kwok: await freePort(),
    podSim: await freePort(),
    metricsServer: await freePort(),
    chartRepo: await freePort(),
    registry: await freePort(),
    sourceControllerMetrics: await freePort(),
    sourceControllerHealth: await freePort(),
    sourceControllerStorage: await freePort(),
    kustomizeControllerMetrics: await freePort(),
    kustomizeControllerHealth: await freePort(),
    helmControllerMetrics: await freePort(),
    helmControllerHealth: await freePort(),
    karpenterMetrics: await freePort(),
    karpenterHealth: await freePort(),
  };
  const pki = await generatePki(join(stateDir, 'pki'));
  const server = `https://127.0.0.1:${ports.apiserver}`;
  const kubeconfigs = {
    admin: join(stateDir, 'admin.kubeconfig'),
    restricted: join(stateDir, 'restricted.kubeconfig'),
  };
  await writeKubeconfig(kubeconfigs.admin, server, pki.ca.cert, pki.admin, identities.admin.user);
  await writeKubeconfig(
    kubeconfigs.restricted,
    server,
    pki.ca.cert,
    pki.restricted,
    identities.restricted.user,
  );
  const audit = { policyFile: join(stateDir, 'audit-policy.yaml'), logFile: join(logsDir, 'audit.log') };
  await writeFile(audit.policyFile, auditPolicy);
  const kwokConfig = join(stateDir, 'kwok.yaml');
  const logsFile = containerLogFile(stateDir);
  const structuredLogsFile = structuredLogFile(stateDir);
  const previousLogsFile = join(podsDir, 'previous.log');
  await writeFile(logsFile, criLine('level=info msg="container started"'));
  await writeFile(structuredLogsFile, criLine('level=info msg="container started"'));
  await writeFile(
    previousLogsFile,
    criLine('level=error msg="connection refused: database not ready"', 'stderr') +
      criLine('level=fatal msg="exiting after 3 failed attempts"', 'stderr'),
  );
  await writeKwokConfig(kwokConfig, bin.kwokStagesDir, {
    logsFile,
    structuredLogsFile,
    previousLogsFile,
    execWorkDir: join(podsDir, 'root'),
    httpTargetPort: ports.podSim,
  });

  const state: ClusterState = {
    version: stateVersion,
    stateDir,
    profile,
    server,
    kubernetesVersion: await kubernetesVersion(),
    ports,
    etcdDataDir: await etcdDataDir(stateDir),
    kubeconfigs,
    auditLog: audit.logFile,
    pki,
    processes: [],
    nodes: [],
    chartSources: chartSources(ports.chartRepo, full && ports.registry),
    startedAt: new Date().toISOString(),
    ready: false,
  };
  const args: ComponentArgs = {
    bin,
    pki,
    ports,
    etcdDataDir: state.etcdDataDir,
    adminKubeconfig: kubeconfigs.admin,
    kwokConfig,
    metricsServerCertDir: join(stateDir, 'metrics-server'),
    fluxStorageDir: join(stateDir, 'flux-storage'),
  };
  const launch = async (name: string, binary: string, argv: string[], env?: NodeJS.ProcessEnv) => {
    const proc = startProcess(name, binary, argv, join(logsDir, `${name}.log`), env);
    state.processes.push(proc);
    await writeState(state);
    return proc;
  };

  try {
    const etcd = await launch('etcd', bin.etcd, etcdArgs(args));
    await waitUntil('etcd', healthy(`http://127.0.0.1:${ports.etcdClient}/health`), {
      timeoutMs: componentTimeoutMs,
      process: etcd,
    });
    log('etcd ready');
    const apiserver = await launch('kube-apiserver', bin.kubeApiserver, apiserverArgs({ ...args, audit }));
    await waitUntil('kube-apiserver', healthy(`${server}/readyz`, { ca: pki.ca.cert, client: pki.admin }), {
      timeoutMs: apiserverTimeoutMs,
      process: apiserver,
    });
    log(`kube-apiserver ready at ${server}`);
    // The Flux controllers, Karpenter and kwok need their CRDs served to start; apply them while the other
    // components boot. The other ecosystem projects' CRDs (ADR 0127) no component needs: they are applied beside,
    // awaited with the components' readiness (the API server takes seconds of CPU over them). One -f per file:
    // kubectl reads a symlinked directory (the cache's bin/ links) as a file.
    const applyCrds = (files: Promise<string[]>) =>
      files
        .then((list) => installCrds(state, bin.kubectl, list, 'binnacle-cluster'))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    const crdDirs = full ? [full.fluxCrdsDir, full.karpenterCrdsDir, bin.kwokCrdsDir] : [bin.kwokCrdsDir];
    const crds = applyCrds(Promise.all(crdDirs.map(crdFiles)).then((files) => files.flat()));
    const ecosystemCrds =
      full &&
      applyCrds(
        crdFiles(full.ecosystemCrdsDir).then((files) =>
          files.filter((file) => dirname(file) !== full.karpenterCrdsDir),
        ),
      );
    const kcm = await launch(
      'kube-controller-manager',
      bin.kubeControllerManager,
      controllerManagerArgs(args),
    );
    const scheduler = await launch('kube-scheduler', bin.kubeScheduler, schedulerArgs(args));
    const podSim = await launch('pod-sim', process.execPath, [
      join(import.meta.dirname, 'pod-sim.ts'),
      String(ports.podSim),
      logsFile,
      structuredLogsFile,
    ]);
    const crdError = await crds;
    if (crdError) throw crdError;
    const kwok = await launch('kwok', bin.kwok, kwokArgs(args));
    const chartDir = join(stateDir, 'charts');
    const chartRepo = await launch('chart-repo', process.execPath, [
      join(import.meta.dirname, 'chart-repo.ts'),
      String(ports.chartRepo),
      chartDir,
    ]);
    const fullComponents = full && (await startFullComponents(launch, full, args, stateDir));
    const metricsServer =
      (options.metricsServer ?? true)
        ? await launch('metrics-server', bin.metricsServer, metricsServerArgs(args))
        : undefined;
    await Promise.all([
      waitUntil('kube-controller-manager', healthy(`https://127.0.0.1:${ports.controllerManager}/healthz`), {
        timeoutMs: componentTimeoutMs,
        process: kcm,
      }),
      waitUntil('kube-scheduler', healthy(`https://127.0.0.1:${ports.scheduler}/healthz`), {
        timeoutMs: componentTimeoutMs,
        process: scheduler,
      }),
      waitUntil('pod-sim', healthy(`http://127.0.0.1:${ports.podSim}/`), {
        timeoutMs: componentTimeoutMs,
        process: podSim,
      }),
      waitUntil('kwok', healthy(`http://127.0.0.1:${ports.kwok}/healthz`), {
        timeoutMs: componentTimeoutMs,
        process: kwok,
      }),
      waitUntil('chart repository', healthy(`http://127.0.0.1:${ports.chartRepo}/healthz`), {
        timeoutMs: componentTimeoutMs,
        process: chartRepo,
      }),
      fullComponents?.ready(),
      metricsServer &&
        waitUntil('metrics-server', healthy(`https://127.0.0.1:${ports.metricsServer}/livez`), {
          timeoutMs: componentTimeoutMs,
          process: metricsServer,
        }),
    ]);
    const ecosystemCrdError = await ecosystemCrds;
    if (ecosystemCrdError) throw ecosystemCrdError;
    if (metricsServer) await registerMetricsApi(kubeconfigs.admin, ports.metricsServer);
    log(
      `controller-manager, scheduler, kwok${metricsServer ? ', metrics-server' : ''}${full ? ', Flux controllers, Karpenter' : ''} and chart sources ready`,
    );
    await publishCharts(state.chartSources, chartDir, join(stateDir, 'helm'));
    log(
      `charts published to ${[state.chartSources.http, state.chartSources.oci].filter(Boolean).join(' and ')}`,
    );
    state.nodes = await createSimulatedNodes(kubeconfigs.admin, nodeCount, state.kubernetesVersion, kwok);
    state.ready = true;
    await writeState(state);
    log(`${nodeCount} nodes Ready; control plane up in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return state;
  } catch (error) {
    await stopProcesses(state.processes);
    await rm(state.etcdDataDir, { recursive: true, force: true });
    await removeState(stateDir);
    throw error;
  }
}

/**
 * The full profile's extra processes: the OCI registry, the Flux controllers and Karpenter (their CRDs must be
 * served); `ready` waits for them.
 */
async function startFullComponents(
  launch: Launch,
  bin: FullClusterBinaries,
  args: ComponentArgs,
  stateDir: string,
): Promise<{ ready: () => Promise<void> }> {
  const registryFile = join(stateDir, 'registry.yaml');
  await writeFile(registryFile, registryConfig(args.ports.registry, join(stateDir, 'registry')));
  const registry = await launch('registry', bin.registry, ['serve', registryFile]);
  const flux = await startFluxControllers(launch, bin, args);
  const karpenter = await startKarpenter(launch, bin, args);
  return {
    ready: async () => {
      await Promise.all([
        karpenter.ready(componentTimeoutMs),
        waitUntil('registry', healthy(`http://127.0.0.1:${args.ports.registry}/v2/`), {
          timeoutMs: componentTimeoutMs,
          process: registry,
        }),
        flux.ready(componentTimeoutMs),
      ]);
    },
  };
}

/** Stops every process of the cluster (whole process groups) and removes its etcd data and state file. */
export async function clusterDown(options: { stateDir?: string } = {}): Promise<boolean> {
  const stateDir = options.stateDir ?? defaultStateDir();
  const state = await readState(stateDir);
  if (!state) return false;
  await stopProcesses(state.processes);
  await rm(state.etcdDataDir, { recursive: true, force: true });
  await rm(state.kubeconfigs.admin, { force: true });
  await rm(state.kubeconfigs.restricted, { force: true });
  await removeState(stateDir);
  return true;
}
