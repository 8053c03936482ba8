import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { waitUntil } from '@binnacle/testkit';
import type { KubeClient } from '../packages/agent/src/kube/client.ts';
import {
  type ApiResource,
  collectionPath,
  discover,
  resourceKey,
} from '../packages/agent/src/kube/discovery.ts';
import { Informer } from '../packages/agent/src/kube/informer.ts';
import type { KubeList } from '../packages/agent/src/kube/objects.ts';
import { tierOf } from '../packages/agent/src/kube/tiers.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

export interface KindBytes {
  kind: string;
  objects: number;
  bytesPerObject: number;
}

/**
 * What one cached object costs by kind: the agent's own Informer (LIST, strip, store) syncs one kind at a time
 * in this process, and the heap growth it keeps after a full GC is divided by its objects. Kinds with fewer than
 * `minObjects` objects are measured together as "other kinds".
 */
export async function cacheBytesByKind(client: KubeClient, minObjects = 100): Promise<KindBytes[]> {
  const resources = (await discover(client)).filter((r) => tierOf(r) !== undefined);
  const kept: Informer[] = [];
  const sync = async (group: ApiResource[]) => {
    const before = heapAfterGc();
    const informers = group.map((r) => new Informer(client, r, { onEvent: () => {} }));
    kept.push(...informers);
    for (const informer of informers) informer.start();
    await Promise.all(informers.map((i) => i.settled));
    await waitUntil('informers to sync', () => Promise.resolve(informers.every((i) => i.synced)), {
      timeoutMs: 300_000,
    });
    const objects = informers.reduce((sum, i) => sum + i.size, 0);
    return { objects, bytes: heapAfterGc() - before };
  };
  try {
    const results: KindBytes[] = [];
    const counts = await Promise.all(
      resources.map(async (resource) => {
        const first = await client.request<KubeList>({ path: collectionPath(resource), query: { limit: 1 } });
        return { resource, objects: (first.items?.length ?? 0) + (first.metadata?.remainingItemCount ?? 0) };
      }),
    );
    const large = counts.filter((c) => c.objects >= minObjects).map((c) => c.resource);
    const small = counts.filter((c) => c.objects > 0 && c.objects < minObjects).map((c) => c.resource);
    for (const resource of large) {
      const { objects, bytes } = await sync([resource]);
      results.push({ kind: resourceKey(resource), objects, bytesPerObject: Math.round(bytes / objects) });
    }
    if (small.length > 0) {
      const { objects, bytes } = await sync(small);
      results.push({
        kind: `${small.length} other kinds`,
        objects,
        bytesPerObject: Math.round(bytes / Math.max(1, objects)),
      });
    }
    return results.sort((a, b) => b.objects - a.objects);
  } finally {
    // An informer stopped while its WATCH request awaits headers leaves an HTTP/2 stream behind that errors,
    // unhandled, when the client closes (undici 8.12 and 8.13): let the watches start first.
    await sleep(500);
    for (const informer of kept) informer.stop();
    await sleep(500);
  }
}
