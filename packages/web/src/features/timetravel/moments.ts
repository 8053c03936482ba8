/** Moments of time travel in the words and forms the pages use (docs/time-travel.md). */

/** `03:12:05` in the viewer's zone, with the day when it is not today. */
export function momentText(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString('en-GB', { hour12: false });
  return at.toDateString() === new Date(now).toDateString()
    ? time
    : `${at.toLocaleDateString('en-CA')} ${time}`;
}

/** A `datetime-local` value (the viewer's zone, to the second) and back. */
export const localValue = (ms: number) => {
  const at = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return at.toISOString().slice(0, 19);
};
export const fromLocal = (value: string) => Date.parse(value);

/**
 * How long after a timeline entry's time its change is surely in the kept past: the timeline and the history
 * stamp the same watch event one after the other, the history last, a few milliseconds apart at most.
 */
const settledMs = 1000;

/** The moment just before a timeline entry's change. */
export const justBefore = (timestamp: string) => new Date(Date.parse(timestamp) - 1).toISOString();

/** When a timeline entry's change is surely in the kept past, in milliseconds. */
export const settled = (timestamp: string) => Date.parse(timestamp) + settledMs;

/**
 * The moment right after a timeline entry's change, never later than now (the kept window ends there): undefined
 * when that is now, which the routes read as their default.
 */
export function rightAfter(timestamp: string, now = Date.now()): string | undefined {
  const after = settled(timestamp);
  return after >= now ? undefined : new Date(after).toISOString();
}

/**
 * The moments a replay steps through from `from` to `to`: both ends, and between them the moment each second
 * with changes had settled (`timestamps`: the timeline's entries), evenly thinned to `most` in all.
 */
export function replaySteps(from: string, to: string, timestamps: readonly string[], most = 20): string[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const bySecond = new Map<number, number>();
  for (const timestamp of timestamps) {
    const at = settled(timestamp);
    if (at <= start || at >= end) continue;
    const second = Math.floor(at / 1000);
    bySecond.set(second, Math.max(at, bySecond.get(second) ?? at));
  }
  const inside = [...bySecond.values()].sort((a, b) => a - b);
  const room = Math.max(0, most - 2);
  const kept =
    inside.length <= room
      ? inside
      : Array.from(
          { length: room },
          (_, i) => inside[Math.round((i * (inside.length - 1)) / Math.max(1, room - 1))] as number,
        );
  return [start, ...kept, end].map((ms) => new Date(ms).toISOString());
}
