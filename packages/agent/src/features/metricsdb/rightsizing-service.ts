import { DurationError, type KubeObject, parseDuration, parseQuantity } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import { visibleNamespaces } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { withStore } from '../../scope/metricsdb/answers.ts';
import { instantQuery, quote } from '../../scope/metricsdb/client.ts';
import type { Connection, MetricsStores } from '../../scope/metricsdb/stores.ts';
import { podWorkload, requireWorkload, workloadPodPattern } from '../../scope/metricsdb/workload-pods.ts';
import type { MetricsdbContext } from './module.ts';
import { usageQueries } from './queries.ts';
import { type ContainerUsage, type CurrentResources, policy, recommend } from './rightsizing.ts';

const maxWindowMs = 720 * 3_600_000;

function windowOf(value: string | undefined) {
  let ms: number;
  try {
    ms = parseDuration(value ?? '168h', 'window');
  } catch (error) {
    throw error instanceof DurationError ? badRequest(error.message) : error;
  }
  if (ms < 3_600_000 || ms > maxWindowMs) throw badRequest(`window: "${value}" is outside 1h to 720h`);
  return { text: value ?? '168h', promql: `${Math.round(ms / 1000)}s` };
}

type Row = { namespace: string; pod: string; container: string } & ContainerUsage;

/** Per pod and container: p95 and peak CPU, peak memory over the window, as three instant queries. */
async function usageRows(
  stores: MetricsStores,
  c: Connection,
  selector: string,
  window: string,
): Promise<Row[]> {
  const queries = usageQueries(selector, window);
  const rows = new Map<string, Row>();
  await Promise.all(
    (Object.entries(queries) as [keyof typeof queries, string][]).map(async ([field, query]) => {
      const data = await instantQuery(c.endpoint, query, Date.now(), stores.timeoutMs);
      if (data.resultType !== 'vector') return;
      for (const { metric, value } of data.result) {
        const key = `${metric.namespace}/${metric.pod}/${metric.container}`;
        const row = rows.get(key) ?? {
          namespace: metric.namespace ?? '',
          pod: metric.pod ?? '',
          container: metric.container ?? '',
        };
        const number = Number(value[1]);
        if (Number.isFinite(number))
          row[field === 'cpuP95' ? 'cpuP95Cores' : field === 'cpuMax' ? 'cpuMaxCores' : 'memoryMaxBytes'] =
            number;
        rows.set(key, row);
      }
    }),
  );
  return [...rows.values()];
}

const larger = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** The largest use of each container name across a workload's pods (a recommendation fits every replica). */
function perContainer(rows: Row[]): Map<string, ContainerUsage> {
  const out = new Map<string, ContainerUsage>();
  for (const row of rows) {
    const seen = out.get(row.container) ?? { container: row.container };
    out.set(row.container, {
      container: row.container,
      cpuP95Cores: larger(seen.cpuP95Cores, row.cpuP95Cores),
      cpuMaxCores: larger(seen.cpuMaxCores, row.cpuMaxCores),
      memoryMaxBytes: larger(seen.memoryMaxBytes, row.memoryMaxBytes),
    });
  }
  return out;
}

interface Container {
  name: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

interface PodSpec {
  containers?: Container[];
}
interface WorkloadSpec {
  template?: { spec?: PodSpec };
  jobTemplate?: { spec?: { template?: { spec?: PodSpec } } };
}

function podSpecOf(object: KubeObject): PodSpec | undefined {
  if (object.kind === 'Pod') return object.spec as PodSpec | undefined;
  const spec = object.spec as WorkloadSpec | undefined;
  if (object.kind === 'CronJob') return spec?.jobTemplate?.spec?.template?.spec;
  return spec?.template?.spec;
}

function replicasOf(object: KubeObject): number {
  const spec = object.spec as { replicas?: number; parallelism?: number } | undefined;
  if (object.kind === 'DaemonSet')
    return Number((object.status as { desiredNumberScheduled?: number })?.desiredNumberScheduled ?? 0);
  if (object.kind === 'Job') return spec?.parallelism ?? 1;
  return spec?.replicas ?? 1;
}

const quantity = (text: string | undefined) => (text === undefined ? undefined : parseQuantity(text));

function current(container: Container): CurrentResources {
  const { requests, limits } = container.resources ?? {};
  return {
    cpuRequestCores: quantity(requests?.cpu),
    cpuLimitCores: quantity(limits?.cpu),
    memoryRequestBytes: quantity(requests?.memory),
    memoryLimitBytes: quantity(limits?.memory),
  };
}

function recommendFor(object: KubeObject, usage: Map<string, ContainerUsage>) {
  const replicas = replicasOf(object);
  const containers = podSpecOf(object)?.containers ?? [];
  return {
    kind: object.kind ?? '',
    namespace: object.metadata?.namespace ?? '',
    name: object.metadata?.name ?? '',
    replicas,
    containers: containers.map((c) =>
      recommend(usage.get(c.name) ?? { container: c.name }, current(c), replicas),
    ),
  };
}

export async function rightsizeWorkload(
  ctx: MetricsdbContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  target: { kind: string; namespace: string; name: string },
  windowParam: string | undefined,
) {
  const { resource, object } = await requireWorkload(ctx, caller, target);
  const window = windowOf(windowParam);
  const pods = workloadPodPattern(ctx, resource.kind, target.namespace, target.name);
  return withStore(stores, async (c) => {
    const rows = await usageRows(
      stores,
      c,
      `namespace=${quote(target.namespace)},pod=~${quote(pods)}`,
      window.promql,
    );
    return {
      window: window.text,
      policy,
      ...recommendFor({ ...object, kind: resource.kind }, perContainer(rows)),
    };
  });
}

/**
 * Every workload with pods in the namespaces the caller may list pods in (or the one asked for), each rolled up
 * from its current pods, largest CPU saving first.
 */
export async function rightsizingScan(
  ctx: MetricsdbContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  body: { namespace?: string; window?: string; limit?: number },
) {
  const window = windowOf(body.window);
  const watched = ctx.cluster.cache.namespaces;
  const requested = body.namespace ? [body.namespace] : watched ? [...watched] : undefined;
  const namespaces = await visibleNamespaces(ctx, caller, { group: '', resource: 'pods' }, requested);
  if (namespaces?.length === 0)
    return { available: true as const, window: window.text, policy, workloads: [] };
  const selector = namespaces ? `namespace=~${quote(namespaces.join('|'))}` : 'namespace!=""';
  const podResource = ctx.cluster.resolve('pods');
  return withStore(stores, async (c) => {
    const rows = await usageRows(stores, c, selector, window.promql);
    const byWorkload = new Map<string, { object: KubeObject; rows: Row[] }>();
    for (const row of rows) {
      const pod = ctx.cluster.cache.get(podResource, row.pod, row.namespace);
      if (!pod) continue;
      const owner = podWorkload(ctx, pod);
      const resource =
        owner.kind === 'Pod'
          ? podResource
          : ctx.cluster.find(owner.kind === 'CronJob' || owner.kind === 'Job' ? 'batch' : 'apps', owner.kind);
      const object = resource ? ctx.cluster.cache.get(resource, owner.name, row.namespace) : undefined;
      if (!object) continue;
      const key = `${row.namespace}/${owner.kind}/${owner.name}`;
      const entry = byWorkload.get(key) ?? { object: { ...object, kind: owner.kind }, rows: [] };
      entry.rows.push(row);
      byWorkload.set(key, entry);
    }
    const saving = (w: ReturnType<typeof recommendFor>) =>
      w.containers.reduce((sum, c) => sum + (c.saving.cpuCores ?? 0), 0);
    const workloads = [...byWorkload.values()]
      .map((entry) => recommendFor(entry.object, perContainer(entry.rows)))
      .sort(
        (a, b) =>
          saving(b) - saving(a) || `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`),
      );
    return {
      window: window.text,
      policy,
      total: workloads.length,
      workloads: workloads.slice(0, body.limit ?? 50),
    };
  });
}
