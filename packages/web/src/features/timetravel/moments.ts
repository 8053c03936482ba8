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
