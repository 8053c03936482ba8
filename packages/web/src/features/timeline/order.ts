/** What the timeline's order reads of an entry. */
interface Placed {
  seq: number;
  timestamp: string;
}

/**
 * The timeline's order, as the agent serves it: newest first by timestamp, entries of one instant newest
 * recorded first. Streamed entries arrive in the order recorded, which is not this one: a Kubernetes Event
 * arrives after what happened since, and says so in its timestamp.
 */
export const newestFirst = (a: Placed, b: Placed): number =>
  Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.seq - a.seq;

/**
 * The entries with one more in its place, the newest `kept` of them; the same array when it is there already
 * (by seq: a stream that resumed sends it again).
 */
export function placeChange<T extends Placed>(entries: T[], change: T, kept: number): T[] {
  if (entries.some((e) => e.seq === change.seq)) return entries;
  const at = entries.findIndex((e) => newestFirst(change, e) < 0);
  const placed = at < 0 ? [...entries, change] : [...entries.slice(0, at), change, ...entries.slice(at)];
  return placed.slice(0, kept);
}
