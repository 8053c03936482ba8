import type { KubeObject } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import type { Impersonation } from '../../kube/client.ts';
import { type LabelSelector, selectorMatcher } from '../../kube/selectors.ts';
import type { LogsContext } from './module.ts';
import { LogSession, type LogStreams, logLimits } from './stream.ts';

const workloadKinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

type Obj = Record<string, unknown>;
const mainContainers = (pod: KubeObject) =>
  ((pod.spec?.containers as Obj[] | undefined) ?? []).map((c) => String(c.name));

/** A pod whose containers have started (or finished), so its log can be read. */
export function hasLogs(pod: KubeObject): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  const phase = pod.status?.phase;
  if (phase === 'Running' || phase === 'Succeeded' || phase === 'Failed') return true;
  return ((pod.status?.containerStatuses as Obj[] | undefined) ?? []).some((c) => {
    const state = (c.state ?? {}) as Obj;
    return state.running !== undefined || state.terminated !== undefined;
  });
}

export interface WorkloadLogOptions {
  container?: string;
  tail?: number;
  sinceSeconds?: number;
  timestamps: boolean;
  as?: Impersonation;
}

/**
 * The merged log of every pod of a workload, each line labelled with its pod and container. Pods that start
 * later — a rollout, a scale-up, a rescheduled pod — join the stream as soon as their containers run; deleted
 * pods leave it. The stream lasts until the client goes (or the 12 h limit).
 */
export function streamWorkloadLogs(
  ctx: LogsContext,
  reply: FastifyReply,
  streams: LogStreams,
  kind: string,
  namespace: string,
  name: string,
  options: WorkloadLogOptions,
): void {
  const { workloadKind, members, containers, current } = workloadPods(
    ctx,
    kind,
    namespace,
    name,
    options.container,
  );
  const session = streams.open(
    reply,
    `${workloadKind} ${namespace}/${name}`,
    (stream) =>
      new LogSession(ctx, stream, namespace, {
        follow: true,
        tail: options.tail,
        sinceSeconds: options.sinceSeconds,
        timestamps: options.timestamps,
        as: options.as,
      }),
  );
  const pods = new FollowedPods(session, containers);
  session.send('connected', {
    namespace,
    workload: { kind: workloadKind, name },
    pods: current.flatMap((p) => p.metadata?.name ?? []),
    containers: [...new Set(current.flatMap(containers))],
  });
  for (const pod of current) pods.start(pod, false);
  // Pods that come and go with rollouts and scaling are followed and let go as they do.
  const unsubscribe = ctx.cluster.cache.onEvent((event) => {
    if (event.resource.kind !== 'Pod' || event.resource.group !== '' || !members(event.object)) return;
    if (event.type === 'deleted' || event.object.metadata?.deletionTimestamp) pods.stop(event.object);
    else pods.start(event.object, true);
  });
  session.stream.onClose(unsubscribe);
}

/** The workload's pods now, which pods are its own, and which of their containers are read; 4xx when none can be. */
export function workloadPods(
  ctx: LogsContext,
  kind: string,
  namespace: string,
  name: string,
  container?: string,
) {
  const resource = ctx.cluster.resolve(kind);
  if (!workloadKinds.has(resource.kind))
    throw new AppError(
      'unknown_kind',
      `workload logs follow Deployments, StatefulSets, DaemonSets, ReplicaSets and Jobs, not ${resource.kind}`,
    );
  const workload = ctx.cluster.cache.get(resource, name, namespace);
  if (!workload) throw new AppError('not_found', `${resource.kind} ${namespace}/${name} not found`);
  const matches = selectorMatcher(workload.spec?.selector as LabelSelector | undefined);
  const members = (pod: KubeObject) => pod.metadata?.namespace === namespace && matches(pod.metadata?.labels);
  const containers = (pod: KubeObject) =>
    container ? mainContainers(pod).filter((c) => c === container) : mainContainers(pod);
  const current = ctx.cluster.cache.list(ctx.cluster.resolve('pods'), namespace).filter(members);
  if (container && current.length > 0 && current.every((p) => containers(p).length === 0)) {
    throw badRequest(`no pod of ${resource.kind} ${namespace}/${name} has a container "${container}"`);
  }
  return { workloadKind: resource.kind, members, containers, current };
}

/** The pods a workload log stream follows, at most `logLimits.maxPods`. */
class FollowedPods {
  readonly #followed = new Set<string>();
  readonly #session: LogSession;
  readonly #containers: (pod: KubeObject) => string[];

  constructor(session: LogSession, containers: (pod: KubeObject) => string[]) {
    this.#session = session;
    this.#containers = containers;
  }

  start(pod: KubeObject, fromStart: boolean): void {
    const podName = pod.metadata?.name ?? '';
    if (this.#followed.has(podName) || !hasLogs(pod)) return;
    if (this.#followed.size >= logLimits.maxPods) {
      this.#session.send('warning', {
        message: `following ${logLimits.maxPods} pods at most; ${podName} is left out`,
      });
      return;
    }
    this.#followed.add(podName);
    if (fromStart) this.#session.send('pod', { pod: podName, change: 'added' });
    for (const container of this.#containers(pod)) {
      // A pod that appears while streaming is read from its first line.
      const from = fromStart ? { tail: undefined, sinceSeconds: undefined } : {};
      this.#session.follow({ pod, container }, from).catch((error: unknown) => {
        this.#session.send('error', {
          pod: podName,
          container,
          ...(error instanceof AppError ? error.toBody() : { error: String(error), code: 'cluster_error' }),
        });
      });
    }
  }

  stop(pod: KubeObject): void {
    const podName = pod.metadata?.name ?? '';
    if (!this.#followed.delete(podName)) return;
    this.#session.unfollow(podName);
    this.#session.send('pod', { pod: podName, change: 'removed' });
  }
}
