import type { KubeObject } from '@binnacle/common';
import type { Impersonation } from '../../kube/client.ts';
import { objectPath, scopeOf } from '../../kube/discovery.ts';
import type { ListResult } from '../../kube/object-reads.ts';
import { summarize } from '../../kube/object-summary.ts';
import { performAction } from '../../scope/actions.ts';
import type { ResourcesContext } from './module.ts';

/**
 * Each object's summary, serialized once: the cache replaces an object when it changes (never mutates it), so
 * an entry keyed by the object cannot go stale, and it goes when the object does.
 */
const summaryJson = new WeakMap<KubeObject, string>();

/**
 * Objects per chunk of a list's JSON: no list is ever one string of tens of megabytes, and a chunk (~55 KB of
 * full pods) stays under glibc's mmap threshold. Chunks of 250 (~550 KB) were each copied into a Buffer for the
 * compressor above that threshold, which glibc then raised, serving the next ones from its heap and keeping it:
 * 20 compressed lists of 10 000 pods left the agent ~40 MB larger; with 25 it stays flat and spends a third
 * less CPU on them (ADR 0105).
 */
const chunkSize = 25;

const summaryJsonOf = (object: KubeObject) => {
  let json = summaryJson.get(object);
  if (json === undefined) {
    json = JSON.stringify(summarize(object));
    summaryJson.set(object, json);
  }
  return json;
};

/**
 * A list as the JSON text the route streams, in chunks of `chunkSize` objects: objects whole, or their summaries
 * (serialized once per object version). Text built per chunk keeps the memory a 10 000-object answer needs
 * small, and a slow client holds the stream back instead of a whole body buffered for it.
 */
export function* listChunks(result: ListResult, summary = false): Generator<string> {
  const { items, ...head } = result;
  const json = summary ? summaryJsonOf : (object: KubeObject) => JSON.stringify(object);
  yield `${JSON.stringify(head).slice(0, -1)},"items":[`;
  for (let start = 0; start < items.length; start += chunkSize) {
    const chunk = items
      .slice(start, start + chunkSize)
      .map(json)
      .join(',');
    yield start === 0 ? chunk : `,${chunk}`;
  }
  yield ']}';
}

export interface DeleteOptions {
  /** Delete as this caller (impersonated), so the cluster's RBAC decides. */
  as?: Impersonation;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

/**
 * Deletes an object as an action of the caller (audited, on the timeline unless a dry run); the answer says
 * whether it is gone or still finalizing.
 */
export async function deleteResource(
  ctx: ResourcesContext,
  kind: string,
  segment: string,
  name: string,
  group: string | undefined,
  options: DeleteOptions,
): Promise<{
  kind: string;
  namespace?: string;
  name: string;
  status: 'deleted' | 'deleting';
  dryRun: boolean;
}> {
  const resource = ctx.cluster.resolve(kind, group);
  const namespace = scopeOf(resource, segment);
  const what = `${resource.kind} ${namespace ? `${namespace}/` : ''}${name}`;
  const target = { kind: resource.kind, group: resource.group, namespace, name };
  return performAction(
    ctx,
    options.as,
    'delete',
    target,
    async () => {
      const answer = await ctx.cluster.client.request<
        KubeObject & { kind?: string; details?: { uid?: string } }
      >({
        method: 'DELETE',
        as: options.as,
        path: objectPath(resource, name, namespace),
        query: { dryRun: options.dryRun ? 'All' : undefined },
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy: options.propagationPolicy ?? 'Background',
          gracePeriodSeconds: options.gracePeriodSeconds,
        },
      });
      // Kubernetes answers with a Status when the object is gone, with the object when finalizers keep it.
      const stillThere = answer?.kind !== 'Status' && answer?.metadata?.deletionTimestamp !== undefined;
      const status = stillThere ? ('deleting' as const) : ('deleted' as const);
      return {
        status,
        dryRun: Boolean(options.dryRun),
        message: stillThere ? `${what} is being deleted (finalizers)` : `deleted ${what}`,
        uid: answer?.details?.uid ?? answer?.metadata?.uid,
      };
    },
    { dryRun: options.dryRun },
  );
}

/** One object as it was at `at` (time travel); 404 naming the moment when it did not exist then. */
