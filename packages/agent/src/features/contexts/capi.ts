import { AppError, parseYaml, yamlLimits } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import type { KubeconfigEntry } from '../../kube/kubeconfig-merge.ts';
import type { ContextsContext } from './module.ts';

type Entry = Record<string, unknown>;

const named = (list: unknown, name: unknown): Entry | undefined =>
  Array.isArray(list)
    ? (list as Entry[]).find((e) => typeof e === 'object' && e !== null && e.name === name)
    : undefined;

const body = (entry: Entry | undefined, field: string): Entry | undefined => {
  const value = entry?.[field];
  return typeof value === 'object' && value !== null ? (value as Entry) : undefined;
};

/** The Secret Cluster API writes for a workload cluster: `<cluster>-kubeconfig`, the kubeconfig under `value`. */
export const capiSecretName = (cluster: string) => `${cluster}-kubeconfig`;

/**
 * The kubeconfig of a Cluster API cluster, read as the caller (their RBAC decides whether they may read the
 * Secret). 404 when the Secret is missing, 422 when it has no `value`.
 */
export async function capiKubeconfig(
  ctx: ContextsContext,
  namespace: string,
  cluster: string,
  as: Impersonation | undefined,
): Promise<string> {
  const secretName = capiSecretName(cluster);
  const secret = await ctx.cluster.client.request<{ data?: Record<string, string> }>({
    path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(secretName)}`,
    as,
  });
  const value = secret.data?.value;
  if (!value) {
    throw new AppError(
      'kubeconfig_invalid',
      `Secret ${namespace}/${secretName} has no kubeconfig: Cluster API keeps it under the key "value"`,
    );
  }
  return Buffer.from(value, 'base64').toString('utf8');
}

/**
 * The context a Cluster API kubeconfig names (its current one, else its only one) as one entry to merge under
 * `name`; 422 when the text is not a kubeconfig with a usable context.
 */
export function capiEntry(kubeconfig: string, name: string, source: string): KubeconfigEntry {
  let doc: Entry;
  try {
    doc = (parseYaml(kubeconfig, yamlLimits.stored, source) ?? {}) as Entry;
  } catch (error) {
    if (error instanceof AppError) throw new AppError('kubeconfig_invalid', error.message);
    throw error;
  }
  const contexts = Array.isArray(doc.contexts) ? (doc.contexts as Entry[]) : [];
  const context =
    named(contexts, doc['current-context']) ?? (contexts.length === 1 ? contexts[0] : undefined);
  const cluster = body(named(doc.clusters, body(context, 'context')?.cluster), 'cluster');
  const user = body(named(doc.users, body(context, 'context')?.user), 'user');
  if (!cluster || typeof cluster.server !== 'string' || !user) {
    throw new AppError(
      'kubeconfig_invalid',
      `${source} names no usable context (its current context, with a cluster that has a server and a user)`,
    );
  }
  return { name, cluster, user };
}
