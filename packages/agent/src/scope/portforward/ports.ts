import type { KubeObject } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import { healthOf } from '../../kube/health.ts';
import { mapSelectorMatcher } from '../../kube/selectors.ts';

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export interface AvailablePort {
  port: number;
  protocol: string;
  name?: string;
  containerName?: string;
  /** For services: the pod port it forwards to (a number or a container port name). */
  targetPort?: number | string;
}

export function podPorts(pod: KubeObject): AvailablePort[] {
  return list(pod.spec?.containers).flatMap((c) =>
    list(c.ports).map((p) => ({
      port: Number(p.containerPort),
      protocol: String(p.protocol ?? 'TCP'),
      name: p.name as string | undefined,
      containerName: String(c.name),
    })),
  );
}

export function servicePorts(service: KubeObject): AvailablePort[] {
  return list(service.spec?.ports).map((p) => ({
    port: Number(p.port),
    protocol: String(p.protocol ?? 'TCP'),
    name: p.name as string | undefined,
    targetPort: (p.targetPort as number | string | undefined) ?? Number(p.port),
  }));
}

export function findObject(
  ctx: Pick<AgentContext, 'cluster'>,
  kind: 'pods' | 'services',
  namespace: string,
  name: string,
): KubeObject {
  const object = ctx.cluster.cache.get(ctx.cluster.resolve(kind), name, namespace);
  if (!object)
    throw new AppError('not_found', `${kind === 'pods' ? 'pod' : 'service'} ${namespace}/${name} not found`);
  return object;
}

/** A pod port given as a number or a container port name. */
export function resolvePodPort(pod: KubeObject, port: number | string): number {
  if (typeof port === 'number') return port;
  const named = podPorts(pod).find((p) => p.name === port);
  if (!named)
    throw badRequest(
      `pod ${pod.metadata?.name} has no port named "${port}"; it has: ${
        podPorts(pod)
          .map((p) => p.name ?? p.port)
          .join(', ') || 'none'
      }`,
    );
  return named.port;
}

/** A ready pod behind a service, and the pod port a service port (number or name) forwards to. */
export function resolveService(
  ctx: Pick<AgentContext, 'cluster'>,
  service: KubeObject,
  port: number | string,
): { pod: KubeObject; podPort: number } {
  const namespace = service.metadata?.namespace ?? '';
  const servicePort = servicePorts(service).find(
    (p) => p.port === port || (p.name !== undefined && p.name === port),
  );
  if (!servicePort) {
    throw badRequest(
      `service ${namespace}/${service.metadata?.name} has no port ${JSON.stringify(port)}; it has: ${servicePorts(
        service,
      )
        .map((p) => p.name ?? p.port)
        .join(', ')}`,
    );
  }
  const matches = mapSelectorMatcher(service.spec?.selector as Record<string, string> | undefined);
  const pod = ctx.cluster.cache
    .list(ctx.cluster.resolve('pods'), namespace)
    .find((p) => matches(p.metadata?.labels) && healthOf(p) === 'healthy' && p.status?.phase === 'Running');
  if (!pod)
    throw new AppError(
      'not_found',
      `service ${namespace}/${service.metadata?.name} has no ready pod to forward to`,
    );
  return { pod, podPort: resolvePodPort(pod, servicePort.targetPort ?? servicePort.port) };
}
