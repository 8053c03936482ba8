import { randomBytes } from 'node:crypto';
import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { type KubeList, nameWithSuffix } from '../../kube/objects.ts';
import type { NodesContext } from './module.ts';
import { readNode } from './service.ts';

/** Node debugger pods carry this label (and their node in spec.nodeName), so DELETE finds exactly them. */
export const debuggerLabel = 'binnacle.dev/node-debugger';
export const debuggerContainer = 'debugger';

export interface NodeDebugRequest {
  image?: string;
  namespace?: string;
  command?: string[];
}

const podsPath = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;

/** A pod name for a node debugger: `node-debugger-<node>-<random>`, at most 63 characters. */
export function debuggerPodName(node: string): string {
  return nameWithSuffix(`node-debugger-${node}`, `-${randomBytes(3).toString('hex')}`);
}

/**
 * The pod `kubectl debug node/<name> --profile=sysadmin` runs: on that node, in its host namespaces (PID, network,
 * IPC), privileged, with the node's root filesystem at /host, tolerating every taint, never restarted.
 */
export function nodeDebuggerPod(
  node: string,
  name: string,
  namespace: string,
  image: string,
  command?: string[],
) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { [debuggerLabel]: 'true', 'app.kubernetes.io/managed-by': 'binnacle' },
    },
    spec: {
      nodeName: node,
      hostPID: true,
      hostNetwork: true,
      hostIPC: true,
      restartPolicy: 'Never',
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: debuggerContainer,
          image,
          stdin: true,
          tty: true,
          ...(command?.length ? { command } : {}),
          securityContext: { privileged: true },
          volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
        },
      ],
      volumes: [{ name: 'host-root', hostPath: { path: '/' } }],
    },
  };
}

/** Starts a debugger pod on the node, created as the caller; exec into it to work on the node. */
export async function startNodeDebugger(
  ctx: NodesContext,
  node: string,
  request: NodeDebugRequest,
  as?: Impersonation,
) {
  const target = await readNode(ctx, node, as);
  const namespace = request.namespace ?? 'default';
  const image = request.image ?? ctx.config.debugImage;
  const pod = await ctx.cluster.client.request<KubeObject>({
    method: 'POST',
    path: podsPath(namespace),
    body: nodeDebuggerPod(node, debuggerPodName(node), namespace, image, request.command),
    as,
  });
  const name = pod.metadata?.name ?? '';
  return {
    message: `debugger pod ${namespace}/${name} started on node ${node}; exec into container "${debuggerContainer}"`,
    uid: target.metadata?.uid,
    pod: name,
    podNamespace: namespace,
    container: debuggerContainer,
    image,
  };
}

/** Deletes the node's debugger pods in a namespace (as the caller) and names them. */
export async function stopNodeDebuggers(
  ctx: NodesContext,
  node: string,
  namespace: string,
  as?: Impersonation,
) {
  const target = await readNode(ctx, node, as);
  const list = await ctx.cluster.client.request<KubeList>({
    path: podsPath(namespace),
    query: { labelSelector: `${debuggerLabel}=true`, fieldSelector: `spec.nodeName=${node}` },
    as,
  });
  const names = (list.items ?? []).map((pod) => pod.metadata?.name ?? '');
  for (const name of names) {
    await ctx.cluster.client
      .request({ method: 'DELETE', path: `${podsPath(namespace)}/${encodeURIComponent(name)}`, as })
      .catch((error: unknown) => {
        // Gone meanwhile is what we wanted.
        if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      });
  }
  return {
    message: names.length
      ? `deleted ${names.length} debugger pod${names.length === 1 ? '' : 's'} of node ${node} in ${namespace}: ${names.join(', ')}`
      : `node ${node} has no debugger pods in ${namespace}`,
    uid: target.metadata?.uid,
    podNamespace: namespace,
    deleted: names,
  };
}
