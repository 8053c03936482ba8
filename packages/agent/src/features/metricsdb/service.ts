import { AppError } from '@binnacle/common/server';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import { withStore } from '../../scope/metricsdb/answers.ts';
import { instantQuery, type QueryData, quote, rangeQuery } from '../../scope/metricsdb/client.ts';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import { workloadPodPattern, workloadResource } from '../../scope/metricsdb/workload-pods.ts';
import { chartWindow, queryRange, queryTimeout } from './bounds.ts';
import type { MetricsdbContext } from './module.ts';
import { type Category, type NamedQuery, nodeQueries, podQueries, totalQueries, units } from './queries.ts';

const value = (text: string) => {
  const number = Number(text);
  return Number.isFinite(number) ? number : null;
};

/** Series as charts draw them: labels and [unix seconds, value] points (null where the store said NaN/Inf). */
export function toSeries(name: string, data: QueryData) {
  if (data.resultType === 'matrix')
    return data.result.map((s) => ({
      name,
      labels: s.metric,
      points: s.values.map(([t, v]) => [t, value(v)] as const),
    }));
  if (data.resultType === 'vector')
    return data.result.map((s) => ({
      name,
      labels: s.metric,
      points: [[s.value[0], value(s.value[1])] as const],
    }));
  return [{ name, labels: {}, points: [[data.result[0], value(data.result[1])] as const] }];
}

type Builder = (rateWindow: string) => NamedQuery[];

/** Range queries over a chart window, each answer's series named after its query (usage, requests …). */
async function chart(stores: MetricsStores, build: Builder, category: Category, range?: string) {
  const window = chartWindow(range, Date.now());
  // A rate over at least one step, so wide charts do not skip the samples between their points.
  const rateWindow = `${Math.max(300, window.stepMs / 1000)}s`;
  return withStore(stores, async (c) => {
    const answers = await Promise.all(
      build(rateWindow).map(async (q) =>
        toSeries(q.name, await rangeQuery(c.endpoint, q.query, window, stores.timeoutMs)),
      ),
    );
    return {
      category,
      unit: units[category],
      range: window.range,
      stepSeconds: window.stepMs / 1000,
      series: answers.flat(),
    };
  });
}

/** The metrics store is not Kubernetes RBAC: cluster-wide figures only for callers who may list pods everywhere. */
const clusterWide = (ctx: MetricsdbContext, caller: Impersonation | undefined) =>
  requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'pods' });

export async function clusterMetrics(
  ctx: MetricsdbContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  query: { category: Category; range?: string },
) {
  await clusterWide(ctx, caller);
  const watched = ctx.cluster.cache.namespaces;
  const scope = watched ? `namespace=~${quote(watched.join('|'))}` : '';
  return chart(
    stores,
    (rate) => totalQueries(scope, query.category, rate, !scope),
    query.category,
    query.range,
  );
}

export async function namespaceMetrics(
  ctx: MetricsdbContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  namespace: string,
  query: { category: Category; range?: string },
) {
  await requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'pods', namespace });
  const build: Builder = (rate) => totalQueries(`namespace=${quote(namespace)}`, query.category, rate, false);
  return { namespace, ...(await chart(stores, build, query.category, query.range)) };
}

/**
 * A workload's or pod's series (its pods rolled up through ownerReferences and the names its controller gives
 * them), or a node's. The caller must be allowed to get the object, and the object must exist.
 */
export async function resourceMetrics(
  ctx: MetricsdbContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  target: { kind: string; namespace?: string; name: string },
  query: { category: Category; range?: string },
) {
  const resource = target.namespace
    ? workloadResource(ctx, ctx.cluster.resolve(target.kind).kind)
    : ctx.cluster.resolve(target.kind);
  if (!target.namespace && resource.kind !== 'Node')
    throw new AppError(
      'unknown_kind',
      `kind: ${resource.kind} is namespaced; use /resources/{kind}/{namespace}/{name}`,
    );
  await requireAccess(ctx, caller, {
    verb: 'get',
    group: resource.group,
    resource: resource.plural,
    namespace: target.namespace,
  });
  if (!ctx.cluster.cache.get(resource, target.name, target.namespace))
    throw new AppError(
      'not_found',
      `${resource.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name} not found`,
    );
  const build: Builder = target.namespace
    ? (rate) =>
        podQueries(
          `namespace=${quote(target.namespace ?? '')},pod=~${quote(workloadPodPattern(ctx, resource.kind, target.namespace ?? '', target.name))}`,
          query.category,
          rate,
        )
    : (rate) => nodeQueries(target.name, query.category, rate);
  const answer = await chart(stores, build, query.category, query.range);
  return {
    kind: resource.kind,
    ...(target.namespace ? { namespace: target.namespace } : {}),
    name: target.name,
    ...answer,
  };
}

export interface PassThrough {
  query: string;
  time?: string;
  start?: string;
  end?: string;
  step?: string;
  timeout?: string;
}

/**
 * A raw PromQL query, instant (`time`) or range (`start`, `end`, `step`). PromQL can read any series, so only
 * callers who may list pods in every namespace may send one.
 */
export async function passThrough(
  ctx: MetricsdbContext,
  stores: MetricsStores,
  caller: Impersonation | undefined,
  params: PassThrough,
) {
  await clusterWide(ctx, caller);
  const now = Date.now();
  const timeoutMs = queryTimeout(params.timeout, stores.timeoutMs);
  const isRange = params.start !== undefined || params.end !== undefined || params.step !== undefined;
  if (isRange && params.time !== undefined)
    throw new AppError('invalid_request', 'time: give time (instant) or start/end/step (range), not both');
  const window = isRange ? queryRange(params, now) : undefined;
  const at = params.time === undefined ? now : queryRange({ start: params.time, step: '1s' }, now).startMs;
  return withStore(stores, async (c) => {
    const data = window
      ? await rangeQuery(c.endpoint, params.query, window, timeoutMs)
      : await instantQuery(c.endpoint, params.query, at, timeoutMs);
    return {
      type: window ? ('range' as const) : ('instant' as const),
      resultType: data.resultType,
      result: data.result,
    };
  });
}
