import type { KubeObject } from '@binnacle/common';
import { useQueries, useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { TimeSeriesChart } from '../../ui/TimeSeriesChart.tsx';
import { formatBytes, formatCores } from '../../ui/units.ts';
import { chartLines } from './chart-lines.ts';
import { StoreUnavailable, type Unavailable } from './StoreUnavailable.tsx';
import { type Category, flatSeries, type HistorySample, thresholds, usageSeries } from './server-series.ts';

/** Pods of a workload whose history is fetched: one request each, so a large workload is drawn from its first ones. */
const maxPods = 30;

/** Kinds the agent's workload route lists pods of; ReplicaSets and Jobs are found by their selector's labels. */
const listedWorkloads = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Rollout']);

interface Target {
  kind: string;
  namespace?: string;
  name: string;
  resource: KubeObject;
}

/** The names of the pods whose histories make up the object's: itself, or its workload's pods. */
function usePodNames({ kind, namespace, name, resource }: Target) {
  const selector = (resource.spec?.selector as { matchLabels?: Record<string, string> } | undefined)
    ?.matchLabels;
  return useQuery({
    queryKey: ['metrics-server', 'pods-of', kind, namespace, name],
    enabled: kind !== 'Pod' && kind !== 'Node' && namespace !== undefined,
    queryFn: async ({ signal }) => {
      const ns = namespace ?? '';
      if (listedWorkloads.has(kind)) {
        const answer = await get('/api/workloads/{kind}/{namespace}/{name}/pods', {
          params: { kind, namespace: ns, name },
          query: { limit: maxPods },
          signal,
        });
        return { names: answer.items.map((p) => String(p.metadata?.name ?? '')), total: answer.total };
      }
      // A CronJob has no selector of its own: its Jobs' pods are drawn on the Jobs' pages.
      if (!selector) return { names: [], total: 0 };
      const labelSelector = Object.entries(selector)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      const answer = await get('/api/resources/{kind}', {
        params: { kind: 'pods' },
        query: { namespace: ns, labelSelector, limit: maxPods },
        signal,
      });
      return {
        names: answer.items.map((p) => String((p.metadata as { name?: string })?.name ?? '')),
        total: answer.total ?? answer.items.length,
      };
    },
    refetchInterval: 30_000,
  });
}

/** The agent's kept polls of metrics-server for a node, a pod, or each pod of a workload. */
function useHistories(target: Target) {
  const pods = usePodNames(target);
  const { kind, namespace, name } = target;
  const names = kind === 'Node' || kind === 'Pod' ? [name] : (pods.data?.names ?? []);
  const histories = useQueries({
    queries: names.map((pod) => ({
      queryKey: ['metrics-server', 'history', kind === 'Node' ? 'node' : 'pod', namespace, pod],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        kind === 'Node'
          ? get('/api/metrics/nodes/{name}/history', { params: { name: pod }, signal })
          : get('/api/metrics/pods/{namespace}/{name}/history', {
              params: { namespace: namespace ?? '', name: pod },
              signal,
            }),
      refetchInterval: 30_000,
    })),
  });
  const pending = (kind !== 'Node' && kind !== 'Pod' && pods.isPending) || histories.some((h) => h.isPending);
  const error = pods.error ?? histories.find((h) => h.error)?.error;
  const answers = histories.flatMap((h, i) => (h.data ? [{ pod: names[i] ?? '', answer: h.data }] : []));
  return { pending, error, answers, total: pods.data?.total, workload: kind !== 'Node' && kind !== 'Pod' };
}

const categories: { id: Category; title: string; unit: 'cores' | 'bytes' }[] = [
  { id: 'cpu', title: 'CPU', unit: 'cores' },
  { id: 'memory', title: 'Memory (working set)', unit: 'bytes' },
];

/** `12 minutes`, `1 hour`: how far back the agent's kept polls reach. */
function spanWords(seconds: number) {
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/**
 * No metrics store: what metrics-server says the object uses now and over the last polls the agent kept (about
 * an hour by default), drawn as the store's charts are, against requests and limits or allocatable and capacity.
 * Why there is no store stays below, folded, with what to do about it.
 */
export function MetricsServerCard(props: Target & { store: Unavailable }) {
  const { pending, error, answers, total, workload } = useHistories(props);
  const first = answers[0]?.answer;
  const usable = answers.filter((a) => a.answer.available || a.answer.samples.length > 0);
  const histories = usable.map((a) => ({ pod: workload ? a.pod : undefined, samples: a.answer.samples }));
  const times = histories.flatMap((h) => h.samples.map((s) => Date.parse(s.timestamp) / 1000));
  const now = Math.floor(Date.now() / 1000);
  const span = first ? first.pollSeconds * first.capacity : 3600;
  const from = Math.max(now - span, Math.min(now - 10 * (first?.pollSeconds ?? 30), ...times));
  const latest = histories.map((h) => h.samples.at(-1)).filter((s): s is HistorySample => s !== undefined);
  const nowCpu = latest.reduce((sum, s) => sum + s.cpuMillicores, 0) / 1000;
  const nowMemory = latest.reduce((sum, s) => sum + s.memoryBytes, 0);
  return (
    <Card title="Metrics" aside={<span className={`text-xs ${mutedLook}`}>from metrics-server</span>}>
      {pending ? (
        <Loading what="the metrics" />
      ) : error ? (
        <ErrorMessage error={error} what="the metrics from metrics-server" />
      ) : first && !first.available && usable.length === 0 ? (
        <p className="text-sm">metrics-server has no figures: {first.diagnosis ?? 'it does not answer'}.</p>
      ) : histories.length === 0 || latest.length === 0 ? (
        <p className="text-sm">
          metrics-server has no figures for {props.kind} {props.name} yet
          {workload && histories.length === 0 ? ' (no pods)' : ''}: the agent polls it every{' '}
          {first?.pollSeconds ?? 30}s.
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          <dl aria-label="Usage now" className="flex flex-wrap gap-x-8 gap-y-1 text-sm">
            <div>
              <dt className={`text-xs ${mutedLook}`}>CPU now</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatCores(nowCpu)}</dd>
            </div>
            <div>
              <dt className={`text-xs ${mutedLook}`}>Memory now</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatBytes(nowMemory)}</dd>
            </div>
            {workload && (
              <div>
                <dt className={`text-xs ${mutedLook}`}>Pods</dt>
                <dd className="text-lg font-semibold tabular-nums">
                  {latest.length}
                  {total !== undefined && total > latest.length ? ` of ${total}` : ''}
                </dd>
              </div>
            )}
          </dl>
          <div className="grid gap-6 lg:grid-cols-2">
            {categories.map(({ id, title, unit }) => {
              const series = [
                ...usageSeries(histories, id),
                ...thresholds(props.resource, id, histories.length).map((t) => flatSeries(t, from, now)),
              ];
              return (
                <section key={id} aria-label={title}>
                  <h3 className="mb-2 text-sm font-medium">{title}</h3>
                  <TimeSeriesChart
                    label={`${title} of ${props.kind} ${props.name}`}
                    unit={unit}
                    lines={chartLines(series)}
                    stepSeconds={first?.pollSeconds ?? 30}
                    from={from}
                    to={now}
                  />
                </section>
              );
            })}
          </div>
          <p className={`text-xs ${mutedLook}`}>
            metrics-server keeps only the present: the agent polls it every {first?.pollSeconds ?? 30}s and
            keeps the last {spanWords(span)}, in memory (restarting the agent starts over).
          </p>
        </div>
      )}
      <details className="mt-3 text-sm">
        <summary className={`cursor-pointer ${mutedLook}`}>
          Longer history and rightsizing need a metrics store
        </summary>
        <div className="mt-2">
          <StoreUnavailable answer={props.store} needs="metrics" />
        </div>
      </details>
    </Card>
  );
}
