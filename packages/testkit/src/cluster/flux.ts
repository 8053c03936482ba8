import { mkdir } from 'node:fs/promises';
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import {
  type ComponentArgs,
  fluxEnv,
  fluxWatchLabel,
  helmControllerArgs,
  kustomizeControllerArgs,
  sourceControllerArgs,
} from './components.ts';
import { createMissing, type SeedObject } from './create-missing.ts';
import type { FullClusterBinaries } from './paths.ts';
import { listening } from './ports.ts';
import { healthy } from './probe.ts';
import type { ManagedProcess } from './processes.ts';
import type { ClusterState } from './state.ts';
import { waitUntil } from './wait.ts';

/** The real reconcile the seed leaves: a HelmRepository of the local chart repository and a release from it. */
export const fluxDemo = {
  namespace: 'flux-demo',
  helmRepository: 'charts',
  helmRelease: 'billing',
  chart: 'billing',
  version: '1.2.0',
} as const;

export const fluxGroups = {
  source: { group: 'source.toolkit.fluxcd.io', version: 'v1' },
  helm: { group: 'helm.toolkit.fluxcd.io', version: 'v2' },
} as const;

const watched = { [fluxWatchLabel.key]: fluxWatchLabel.value };

/** Starts one process of the control plane and records it in the state (control-plane.ts). */
export type Launch = (
  name: string,
  binary: string,
  argv: string[],
  env?: NodeJS.ProcessEnv,
) => Promise<ManagedProcess>;

/**
 * Starts source-, kustomize- and helm-controller (their CRDs must be served already); `ready` waits for their
 * health endpoints and for every port they listen on.
 */
export async function startFluxControllers(
  launch: Launch,
  bin: FullClusterBinaries,
  args: ComponentArgs,
): Promise<{ ready: (timeoutMs: number) => Promise<void> }> {
  await mkdir(args.fluxStorageDir, { recursive: true });
  const env = fluxEnv(args);
  const { ports } = args;
  const controllers = [
    {
      proc: await launch('source-controller', bin.sourceController, sourceControllerArgs(args), env),
      health: ports.sourceControllerHealth,
    },
    {
      proc: await launch('kustomize-controller', bin.kustomizeController, kustomizeControllerArgs(args), env),
      health: ports.kustomizeControllerHealth,
    },
    {
      proc: await launch('helm-controller', bin.helmController, helmControllerArgs(args), env),
      health: ports.helmControllerHealth,
    },
  ];
  // The metrics listeners and source-controller's artifact server open only once each manager has started,
  // which can be after /readyz answers.
  const lateListeners = [
    {
      name: 'source-controller artifact server',
      port: ports.sourceControllerStorage,
      proc: controllers[0]?.proc,
    },
    { name: 'source-controller metrics', port: ports.sourceControllerMetrics, proc: controllers[0]?.proc },
    {
      name: 'kustomize-controller metrics',
      port: ports.kustomizeControllerMetrics,
      proc: controllers[1]?.proc,
    },
    { name: 'helm-controller metrics', port: ports.helmControllerMetrics, proc: controllers[2]?.proc },
  ];
  return {
    ready: async (timeoutMs) => {
      await Promise.all([
        ...controllers.map(({ proc, health }) =>
          waitUntil(proc.name, healthy(`http://127.0.0.1:${health}/readyz`), { timeoutMs, process: proc }),
        ),
        ...lateListeners.map(({ name, port, proc }) =>
          waitUntil(name, listening(port), { timeoutMs, process: proc }),
        ),
      ]);
    },
  };
}

/**
 * The namespace, HelmRepository and HelmRelease of the demo, all labelled for the controllers. The chart template
 * carries the label too: helm-controller copies it onto the HelmChart it creates, which source-controller must
 * build.
 */
export function fluxDemoObjects(
  chartRepositoryUrl: string,
  namespace: string = fluxDemo.namespace,
): SeedObject[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    {
      apiVersion: `${fluxGroups.source.group}/${fluxGroups.source.version}`,
      kind: 'HelmRepository',
      metadata: { name: fluxDemo.helmRepository, namespace, labels: watched },
      spec: { interval: '1m', url: chartRepositoryUrl },
    },
    {
      apiVersion: `${fluxGroups.helm.group}/${fluxGroups.helm.version}`,
      kind: 'HelmRelease',
      metadata: { name: fluxDemo.helmRelease, namespace, labels: watched },
      spec: {
        interval: '1m',
        chart: {
          spec: {
            chart: fluxDemo.chart,
            version: fluxDemo.version,
            interval: '1m',
            sourceRef: { kind: 'HelmRepository', name: fluxDemo.helmRepository },
          },
          metadata: { labels: watched },
        },
        install: { timeout: '2m' },
        upgrade: { timeout: '2m' },
      },
    },
  ];
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
export interface FluxObject {
  metadata: { generation?: number; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: {
    observedGeneration?: number;
    conditions?: Condition[];
    lastHandledReconcileAt?: string;
    history?: { version?: number }[];
  };
}

/** Ready=True for the object's current generation; otherwise throws with the Ready condition, for the wait. */
export function fluxReady(object: FluxObject): boolean {
  const ready = object.status?.conditions?.find((condition) => condition.type === 'Ready');
  const current = object.status?.observedGeneration === object.metadata.generation;
  if (ready?.status === 'True' && current) return true;
  throw new Error(
    ready
      ? `Ready=${ready.status} (${ready.reason}: ${ready.message})${current ? '' : ', generation not observed yet'}`
      : 'no Ready condition yet',
  );
}

/**
 * Waits until helm-controller has observed `generation` of the object `read` returns. It records a generation as
 * observed only once done with it — after the upgrade, or at once for a suspended release — so for a suspended
 * release this proves the change was seen and held, with no arbitrary time waited out.
 */
export function fluxGenerationObserved(
  what: string,
  read: () => Promise<FluxObject>,
  generation: number | undefined,
): Promise<void> {
  return waitUntil(
    `${what} observed at generation ${generation} (helm-controller)`,
    async () => {
      const seen = (await read()).status?.observedGeneration;
      if (seen !== generation) throw new Error(`observedGeneration is ${seen}`);
      return true;
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );
}

/**
 * Creates the demo's namespace, HelmRepository and HelmRelease where missing and, when it created the release, waits
 * until helm-controller has installed it. An existing one is left as it is (the user may have suspended it).
 */
export async function seedFluxDemo(
  state: ClusterState,
  kubectlPath: string,
  kc: KubeConfig,
): Promise<'installed' | 'present'> {
  const { created } = await createMissing(state, kubectlPath, fluxDemoObjects(state.chartSources.http));
  if (!created.some((object) => object.kind === 'HelmRelease')) return 'present';
  await fluxReleaseInstalled(kc.makeApiClient(CustomObjectsApi), fluxDemo.namespace, {
    timeoutMs: 120_000,
    process: state.processes.find((p) => p.name === 'helm-controller'),
  });
  return 'installed';
}

/**
 * The demo's HelmRepository and HelmRelease in a test's own namespace (which must exist), once helm-controller
 * has installed revision 1: a release a test may change without touching the seeded one.
 */
export async function installFluxDemo(
  kc: KubeConfig,
  chartRepositoryUrl: string,
  namespace: string,
): Promise<void> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const [, repository, release] = fluxDemoObjects(chartRepositoryUrl, namespace);
  await custom.createNamespacedCustomObject({
    ...fluxGroups.source,
    plural: 'helmrepositories',
    namespace,
    body: repository,
  });
  await custom.createNamespacedCustomObject({
    ...fluxGroups.helm,
    plural: 'helmreleases',
    namespace,
    body: release,
  });
  await fluxReleaseInstalled(custom, namespace, { timeoutMs: 90_000 });
}

async function fluxReleaseInstalled(
  custom: CustomObjectsApi,
  namespace: string,
  options: { timeoutMs: number; process?: ManagedProcess },
): Promise<void> {
  await waitUntil(
    `HelmRelease ${namespace}/${fluxDemo.helmRelease} Ready (helm-controller)`,
    async () =>
      fluxReady(
        (await custom.getNamespacedCustomObject({
          ...fluxGroups.helm,
          plural: 'helmreleases',
          namespace,
          name: fluxDemo.helmRelease,
        })) as FluxObject,
      ),
    { ...options, intervalMs: 500 },
  );
}
