import type { TimelineEvent, TimelineQuery } from '../types.ts';

/** The query as a predicate over one event; the memory store uses it, the SQLite store mirrors it in SQL. */
export function matches(query: TimelineQuery): (event: TimelineEvent) => boolean {
  const namespaces = query.namespaces ? new Set(query.namespaces) : undefined;
  const kinds = query.kinds?.length ? new Set(query.kinds.map((k) => k.toLowerCase())) : undefined;
  const uids = query.uids?.length ? new Set(query.uids) : undefined;
  const ownerUids = query.ownerUids?.length ? new Set(query.ownerUids) : undefined;
  const eventTypes = query.eventTypes?.length ? new Set(query.eventTypes) : undefined;
  const sources = query.sources?.length ? new Set(query.sources) : undefined;
  const excludeKinds = query.excludeKinds?.length
    ? new Set(query.excludeKinds.map((k) => k.toLowerCase()))
    : undefined;
  const excludeNames = query.excludeNames?.map((pattern) => new RegExp(pattern));
  const since = query.since ? Date.parse(query.since) : undefined;
  return (e) => {
    if (query.sinceSeq !== undefined && e.seq <= query.sinceSeq) return false;
    if (since !== undefined && Date.parse(e.timestamp) < since) return false;
    if (namespaces && !namespaces.has(e.namespace ?? '')) return false;
    if (kinds && !kinds.has(e.kind.toLowerCase())) return false;
    if (query.name !== undefined && e.name !== query.name) return false;
    if (
      (uids || ownerUids) &&
      !((uids && e.uid && uids.has(e.uid)) || (ownerUids && e.owner?.uid && ownerUids.has(e.owner.uid)))
    )
      return false;
    if (eventTypes && !eventTypes.has(e.eventType)) return false;
    if (sources && !sources.has(e.source)) return false;
    if (excludeKinds?.has(e.kind.toLowerCase())) return false;
    if (excludeNames?.some((re) => re.test(e.name))) return false;
    if (query.topLevelOnly && e.owner) return false;
    return true;
  };
}
