import { mapConcurrently } from '@binnacle/common';
import type { AccessReviewer } from './access-review.ts';
import type { KubeClient } from './client.ts';
import type { KubeList } from './objects.ts';

type Log = (level: 'info' | 'warn', message: string, detail?: Record<string, unknown>) => void;

const reviewsAtOnce = 16;
const listPods = { verb: 'list', group: '', resource: 'pods' } as const;

/**
 * The namespaces to watch when none are configured: undefined (the whole cluster) when the agent's identity may
 * list pods cluster-wide; else, if it may list namespaces, those where it may list pods — so an identity bound in
 * a few namespaces gets an agent that works there instead of one whose cluster-wide informers are refused or
 * exhaust it (ADR 0121). An identity that may do neither stays cluster-wide and is told to name its namespaces.
 */
export async function readableNamespaces(
  client: KubeClient,
  access: AccessReviewer,
  log?: Log,
): Promise<string[] | undefined> {
  try {
    if (await access.allowed(undefined, listPods)) return undefined;
    if (!(await access.allowed(undefined, { verb: 'list', group: '', resource: 'namespaces' }))) {
      log?.(
        'warn',
        "the agent's identity may list pods neither across the cluster nor find its namespaces: name them with --namespace",
      );
      return undefined;
    }
    const list = await client.request<KubeList>({ path: '/api/v1/namespaces' });
    const names = (list.items ?? []).map((ns) => ns.metadata?.name ?? '').filter(Boolean);
    const readable = await mapConcurrently(names, reviewsAtOnce, (namespace) =>
      access.allowed(undefined, { ...listPods, namespace }),
    );
    const watched = names.filter((_, index) => readable[index]);
    log?.(
      'info',
      "the agent's identity may not list pods across the cluster: watching the namespaces it may read",
      {
        namespaces: watched,
      },
    );
    return watched;
  } catch (error) {
    log?.(
      'warn',
      `could not tell which namespaces the agent may read; watching the whole cluster: ${(error as Error).message}`,
    );
    return undefined;
  }
}
