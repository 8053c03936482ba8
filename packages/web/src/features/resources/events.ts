/** A core/v1 Event, only what the Events card reads (events.k8s.io fields included: the API server fills both). */
export interface EventObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  metadata?: { uid?: string; creationTimestamp?: string };
}

/**
 * When an event was first and last seen, and how often. Events from the newer API leave the legacy timestamps
 * empty and count in `series`; `kubectl describe` falls back the same way (eventTime, then creation).
 */
export function eventTimes(e: EventObject): { first?: string; last?: string; count: number } {
  const first = e.firstTimestamp || e.eventTime || e.metadata?.creationTimestamp || undefined;
  const last = e.series?.lastObservedTime || e.lastTimestamp || e.eventTime || first;
  return { first, last, count: e.series?.count ?? e.count ?? 1 };
}
