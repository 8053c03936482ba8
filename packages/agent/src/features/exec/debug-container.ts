import { randomBytes } from 'node:crypto';
import type { KubeObject } from '@binnacle/common';
import type { Impersonation } from '../../kube/client.ts';
import { podAndContainer } from '../../kube/pods.ts';
import { performAction } from '../../scope/actions.ts';
import type { ExecContext } from './module.ts';

export interface DebugRequest {
  image?: string;
  targetContainer?: string;
  command?: string[];
}

type Obj = Record<string, unknown>;

/**
 * Adds an ephemeral debug container to a running pod (the `pods/ephemeralcontainers` subresource), sharing the
 * target container's process namespace when one is named. Answers with its name and current state.
 */
export async function addDebugContainer(
  ctx: ExecContext,
  namespace: string,
  name: string,
  request: DebugRequest,
  as?: Impersonation,
) {
  // Without a target, the debugger joins the pod's default container (its processes, its view of the pod).
  const { container: target } = podAndContainer(ctx.cluster, namespace, name, request.targetContainer);
  const image = request.image ?? ctx.config.debugImage;
  const containerName = `debugger-${randomBytes(3).toString('hex')}`;
  // The pod's spec changes for good (an ephemeral container stays until the pod goes): an action of the caller.
  const { status, reason } = await performAction(
    ctx,
    as,
    'debug',
    { kind: 'Pod', group: '', namespace, name },
    async () => {
      const patched = await ctx.cluster.client.request<KubeObject>({
        method: 'PATCH',
        path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/ephemeralcontainers`,
        contentType: 'application/strategic-merge-patch+json',
        as,
        body: {
          spec: {
            ephemeralContainers: [
              {
                name: containerName,
                image,
                stdin: true,
                tty: true,
                targetContainerName: target,
                ...(request.command?.length ? { command: request.command } : {}),
              },
            ],
          },
        },
      });
      const found = ((patched.status?.ephemeralContainerStatuses as Obj[] | undefined) ?? []).find(
        (s) => s.name === containerName,
      );
      const state = (found?.state ?? {}) as Obj;
      const [phase] = Object.keys(state);
      return {
        status: (phase ?? 'pending') as 'waiting' | 'running' | 'terminated' | 'pending',
        reason: phase ? ((state[phase] as Obj).reason as string | undefined) : undefined,
        message: `added the debug container ${containerName} (${image}) to pod ${namespace}/${name}`,
        uid: patched.metadata?.uid,
      };
    },
  );
  return { namespace, pod: name, containerName, image, targetContainer: target, status, reason };
}
