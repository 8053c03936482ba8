import type { KubeObject } from '@binnacle/common';
import { type ApiResource, splitApiVersion } from '../../kube/discovery.ts';
import { healthOf } from '../../kube/health.ts';
import type { NewTimelineEvent, OwnerRef } from './types.ts';

type Obj = Record<string, unknown>;

export function ownerOf(object: KubeObject): OwnerRef | undefined {
  const refs = object.metadata?.ownerReferences ?? [];
  const ref = refs.find((r) => r.controller) ?? refs[0];
  return ref ? { kind: ref.kind, name: ref.name, uid: ref.uid } : undefined;
}

function base(resource: ApiResource, object: KubeObject) {
  return {
    kind: resource.kind,
    group: resource.group,
    namespace: object.metadata?.namespace,
    name: object.metadata?.name ?? '',
    uid: object.metadata?.uid,
    owner: ownerOf(object),
    health: healthOf(object),
  };
}

/**
 * One format for every entry's time (RFC 3339 with milliseconds): the API server writes whole seconds, the agent
 * milliseconds, and clients compare the strings.
 */
const iso = (time: string) => new Date(time).toISOString();

const idOf = (object: KubeObject) =>
  object.metadata?.uid ?? `${object.metadata?.namespace}/${object.metadata?.name}`;

/** A Kubernetes Event as a timeline entry about the object it involves. */
export function fromKubeEvent(event: KubeObject): NewTimelineEvent {
  const involved = (event.involvedObject ?? {}) as {
    kind?: string;
    apiVersion?: string;
    namespace?: string;
    name?: string;
    uid?: string;
  };
  const group = splitApiVersion(involved.apiVersion ?? '').group;
  const count = Number(event.count ?? (event.series as Obj | undefined)?.count ?? 1);
  const timestamp = String(
    event.lastTimestamp ??
      (event.series as Obj | undefined)?.lastObservedTime ??
      event.eventTime ??
      event.metadata?.creationTimestamp ??
      new Date().toISOString(),
  );
  return {
    key: `event:${idOf(event)}:${count}:${timestamp}`,
    timestamp: iso(timestamp),
    source: 'k8s_event',
    eventType: event.type === 'Warning' ? 'Warning' : 'Normal',
    kind: involved.kind ?? 'Unknown',
    group,
    namespace: involved.namespace ?? event.metadata?.namespace,
    name: involved.name ?? '',
    uid: involved.uid,
    reason: event.reason as string | undefined,
    message: event.message as string | undefined,
    count,
  };
}

/** What the object's own metadata tells about its past, recorded when the agent first sees it. */
export function historicalEntries(resource: ApiResource, object: KubeObject): NewTimelineEvent[] {
  const entries: NewTimelineEvent[] = [];
  const created = object.metadata?.creationTimestamp;
  if (created) entries.push(lifecycleEntry(resource, object, 'created', 'historical', created));
  const status = (object.status ?? {}) as Obj;
  if (resource.kind === 'Pod' && typeof status.startTime === 'string') {
    entries.push({
      ...base(resource, object),
      key: `${idOf(object)}:started`,
      timestamp: iso(status.startTime),
      source: 'historical',
      eventType: 'update',
      reason: 'Started',
      message: `pod started on ${String((object.spec as Obj | undefined)?.nodeName ?? 'a node')}`,
    });
  }
  if (resource.kind === 'Job' && typeof status.completionTime === 'string') {
    entries.push({
      ...base(resource, object),
      key: `${idOf(object)}:completed`,
      timestamp: iso(status.completionTime),
      source: 'historical',
      eventType: 'update',
      reason: 'Completed',
      message: `job completed (${Number(status.succeeded ?? 0)} succeeded)`,
    });
  }
  return entries;
}

/**
 * An object came or went. Live and historical creations share a key, so a restart that sees an object for the
 * "first" time again does not record its creation twice.
 */
export function lifecycleEntry(
  resource: ApiResource,
  object: KubeObject,
  change: 'created' | 'deleted',
  source: 'informer' | 'historical',
  timestamp: string,
): NewTimelineEvent {
  return {
    ...base(resource, object),
    key: `${idOf(object)}:${change}`,
    timestamp: iso(timestamp),
    source,
    eventType: change === 'created' ? 'add' : 'delete',
    reason: change === 'created' ? 'Created' : 'Deleted',
    message: `${resource.kind} ${change}`,
  };
}

export function updatedEntry(
  resource: ApiResource,
  object: KubeObject,
  diff: NonNullable<NewTimelineEvent['diff']>,
  now: string,
): NewTimelineEvent {
  return {
    ...base(resource, object),
    key: `${idOf(object)}:${object.metadata?.resourceVersion ?? now}`,
    timestamp: now,
    source: 'informer',
    eventType: 'update',
    reason: 'Updated',
    message: diff.summary,
    diff,
  };
}

/** Minutes and seconds of a span, for a message. */
const spanText = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [hours && `${hours} h`, (hours || minutes) && `${minutes} min`, `${seconds % 60} s`]
    .filter(Boolean)
    .join(' ');
};

/**
 * The span the agent did not watch the cluster (it was stopped), found when it lists again after a restart. One
 * entry per span (keyed by its start), at its end: what changed or went meanwhile is recorded at that moment.
 */
export function notWatchedEntry(gap: { from: number; to: number }): NewTimelineEvent {
  const from = new Date(gap.from).toISOString();
  const to = new Date(gap.to).toISOString();
  return {
    key: `agent:not-watched:${gap.from}`,
    timestamp: to,
    source: 'agent',
    eventType: 'Warning',
    kind: 'Agent',
    group: '',
    name: 'binnacle',
    reason: 'NotWatching',
    message: `The agent did not watch the cluster from ${from} to ${to} (${spanText(gap.to - gap.from)}): changes in between are not listed one by one; objects found changed or deleted when it listed again are listed at ${to}.`,
  };
}
