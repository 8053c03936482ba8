import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { CallerView } from '../../http/caller-view.ts';
import { requestedMoment } from '../../http/query.ts';
import { defaultExcludedKinds, defaultExcludedNames } from '../../scope/timeline/noise.ts';
import type { ChangeRecorder } from '../../scope/timeline/recorder.ts';
import type { TimelineEvent, TimelineQuery } from '../../scope/timeline/types.ts';
import type { TimelineContext } from './module.ts';

export const changesLimit = { default: 200, max: 10_000 };
export const presets = ['default', 'all', 'warnings-only', 'workloads'] as const;
export type Preset = (typeof presets)[number];
const workloadKinds = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Service', 'Ingress'];

/** The query of a preset; kinds the caller may not see (see callerView) are left out on top. */
export function presetQuery(preset: Preset, hiddenKinds: readonly string[] = []): Partial<TimelineQuery> {
  const query = presetBase(preset);
  return hiddenKinds.length
    ? { ...query, excludeKinds: [...(query.excludeKinds ?? []), ...hiddenKinds] }
    : query;
}

/** What each preset adds to a query. */
function presetBase(preset: Preset): Partial<TimelineQuery> {
  switch (preset) {
    case 'all':
      return {};
    case 'warnings-only':
      return { eventTypes: ['Warning'] };
    case 'workloads':
      return { kinds: workloadKinds, topLevelOnly: true };
    default:
      return { excludeKinds: defaultExcludedKinds, excludeNames: defaultExcludedNames };
  }
}

/** `since` is an RFC 3339 time or a duration back from now (`90m`, `24h`). */
export function parseSince(since: string | undefined, now = Date.now()): string | undefined {
  const moment = requestedMoment(since, 'since', now);
  return moment === undefined ? undefined : new Date(moment).toISOString();
}

export interface ChangesRequest {
  /** Undefined: every namespace; empty: none. */
  namespaces?: string[];
  hiddenKinds?: string[];
  kinds?: string[];
  name?: string;
  since?: string;
  sinceSeq?: number;
  epoch?: string;
  limit?: number;
  preset?: Preset;
}

export interface ChangesPage {
  events: TimelineEvent[];
  epoch: string;
  oldestSeq: number;
  latestSeq: number;
  /**
   * True when the client's cursor cannot be served as a delta: it comes from another epoch (the store started
   * over) or points before the oldest event kept. The client should drop what it has and load afresh.
   */
  stale: boolean;
}

export async function changes(recorder: ChangeRecorder, request: ChangesRequest): Promise<ChangesPage> {
  const stats = await recorder.store.stats();
  const stale =
    (request.epoch !== undefined && request.epoch !== stats.epoch) ||
    (request.sinceSeq !== undefined && stats.count > 0 && request.sinceSeq < stats.oldestSeq - 1);
  const delta = request.sinceSeq !== undefined && !stale;
  const events = await recorder.store.query({
    ...presetQuery(request.preset ?? 'default', request.hiddenKinds),
    ...(request.kinds ? { kinds: request.kinds } : {}),
    namespaces: request.namespaces,
    name: request.name,
    since: parseSince(request.since),
    sinceSeq: delta ? request.sinceSeq : undefined,
    limit: request.limit ?? changesLimit.default,
    order: delta ? 'recorded' : 'time',
  });
  return { events, epoch: stats.epoch, oldestSeq: stats.oldestSeq, latestSeq: stats.latestSeq, stale };
}

/**
 * The changes of an object's descendants through owner references (a Deployment's ReplicaSets and their Pods),
 * including descendants that no longer exist: their uids are found through the owners recorded on past events.
 */
export async function childChanges(
  ctx: TimelineContext,
  recorder: ChangeRecorder,
  kind: string,
  namespace: string | undefined,
  name: string,
  limit: number,
  view: CallerView,
) {
  const resource = ctx.cluster.resolve(kind);
  const object = ctx.cluster.cache.caches(resource)
    ? ctx.cluster.cache.get(resource, name, namespace)
    : undefined;
  let rootUid = object?.metadata?.uid;
  if (!rootUid) {
    const past = await recorder.store.query({
      kinds: [resource.kind],
      namespaces: namespace ? [namespace] : undefined,
      name,
      limit: 1,
    });
    rootUid = past[0]?.uid;
  }
  if (!rootUid)
    throw new AppError(
      'not_found',
      `no ${resource.kind} ${namespace ? `${namespace}/` : ''}${name} is known, now or in the timeline`,
    );

  const owners = new Set([rootUid]);
  // Living descendants, from the cache.
  const inNamespace: KubeObject[] = [];
  for (const r of ctx.cluster.cache.resources) {
    if (r.namespaced && ctx.cluster.cache.informer(r)?.synced)
      inNamespace.push(...ctx.cluster.cache.peek(r).filter((o) => o.metadata?.namespace === namespace));
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const o of inNamespace) {
      const uid = o.metadata?.uid;
      if (uid && !owners.has(uid) && o.metadata?.ownerReferences?.some((ref) => owners.has(ref.uid))) {
        owners.add(uid);
        grew = true;
      }
    }
  }
  // Descendants that are gone, from the owners recorded on their events (three levels deep at most).
  for (let depth = 0; depth < 3; depth += 1) {
    const found = await recorder.store.query({ ownerUids: [...owners], limit: changesLimit.max });
    const before = owners.size;
    for (const e of found) if (e.uid) owners.add(e.uid);
    if (owners.size === before) break;
  }
  owners.delete(rootUid);
  // Only what the caller's view shows (a Node's Pods span namespaces).
  const events =
    owners.size === 0
      ? []
      : await recorder.store.query({
          uids: [...owners],
          namespaces: view.namespaces,
          excludeKinds: view.hiddenKinds,
          limit,
        });
  return { root: { kind: resource.kind, namespace, name, uid: rootUid }, events };
}
