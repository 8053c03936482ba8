import { AppError, badRequest } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import { Forward, type ForwardView } from './forwarder.ts';
import { findObject, resolvePodPort, resolveService } from './ports.ts';

/** What port-forwards read: the pods of the context served, the deployment mode, the sessions they run in. */
type ForwardsContext = Pick<AgentContext, 'cluster' | 'connection' | 'log' | 'mode' | 'sessions'>;

export interface ForwardRequest {
  namespace: string;
  pod?: string;
  service?: string;
  /** The pod port (a number or a container port name), or for a service its service port. */
  port: number | string;
  /** 0 or left out: any free port. */
  localPort?: number;
}

export const forwardLimits = { max: 100 };

/**
 * Port-forwards from the agent's host (127.0.0.1) to pods. A forward to a pod ends (status `error`) when the pod
 * goes; a forward to a service moves to another ready pod. Each holder keeps its own set: the portforward routes
 * the callers' forwards, traffic the one to its Hubble relay, which no caller lists or stops.
 */
export class PortForwards {
  readonly #ctx: ForwardsContext;
  readonly #forwards = new Map<string, Forward>();
  readonly #unsubscribe: () => void;

  constructor(ctx: ForwardsContext) {
    this.#ctx = ctx;
    // Pods of the context being served: a switch brings a new cache (and ends every forward into the old).
    this.#unsubscribe = ctx.connection.bind((scope) =>
      scope.cluster.cache.onEvent((event) => {
        if (event.resource.kind !== 'Pod' || event.resource.group !== '') return;
        const gone =
          event.type === 'deleted' ||
          event.object.metadata?.deletionTimestamp !== undefined ||
          event.object.status?.phase === 'Failed';
        if (!gone) return;
        for (const forward of this.#forwards.values()) {
          const { namespace, pod, status } = forward.view;
          if (
            status === 'running' &&
            namespace === event.object.metadata?.namespace &&
            pod === event.object.metadata?.name
          ) {
            forward.podGone(
              `pod ${namespace}/${pod} ${event.type === 'deleted' ? 'was deleted' : 'is going away'}`,
            );
          }
        }
      }),
    );
  }

  list(): ForwardView[] {
    return [...this.#forwards.values()].map((f) => ({ ...f.view }));
  }

  async create(request: ForwardRequest): Promise<ForwardView> {
    if (this.#ctx.mode !== 'local')
      throw new AppError(
        'forbidden',
        "port-forwards listen on the agent's host; in a cluster that is the agent's pod, so they are off",
      );
    if ((request.pod === undefined) === (request.service === undefined))
      throw badRequest('give either "pod" or "service"');
    if ([...this.#forwards.values()].filter((f) => f.view.status === 'running').length >= forwardLimits.max) {
      throw new AppError(
        'too_many_streams',
        `at most ${forwardLimits.max} port-forwards run at once; delete one first`,
      );
    }
    const { namespace } = request;
    let forward: Forward;
    if (request.pod !== undefined) {
      const pod = findObject(this.#ctx, 'pods', namespace, request.pod);
      if (pod.status?.phase !== 'Running')
        throw new AppError(
          'conflict',
          `pod ${namespace}/${request.pod} is ${pod.status?.phase ?? 'not running'}, not Running`,
        );
      forward = new Forward(this.#ctx, {
        namespace,
        pod: request.pod,
        port: request.port,
        podPort: resolvePodPort(pod, request.port),
        address: '127.0.0.1',
      });
    } else {
      const service = findObject(this.#ctx, 'services', namespace, request.service as string);
      const pick = () => resolveService(this.#ctx, service, request.port);
      const { pod, podPort } = pick();
      forward = new Forward(
        this.#ctx,
        {
          namespace,
          pod: pod.metadata?.name ?? '',
          service: request.service,
          port: request.port,
          podPort,
          address: '127.0.0.1',
        },
        pick,
      );
    }
    await forward.listen(request.localPort ?? 0);
    this.#forwards.set(forward.view.id, forward);
    return { ...forward.view };
  }

  /** Stops a forward and forgets it. */
  delete(id: string): ForwardView {
    const forward = this.#forwards.get(id);
    if (!forward) throw new AppError('not_found', `no port-forward ${id}`);
    forward.stop('stopped');
    this.#forwards.delete(id);
    return { ...forward.view };
  }

  close(): void {
    this.#unsubscribe();
    for (const forward of this.#forwards.values()) forward.stop('stopped');
  }
}
