/** What an operation's field holds: the number it means, or why it means none (said under the field). */
export type FieldValue<T = number> =
  | { value: T; problem?: undefined }
  | { value?: undefined; problem: string };

/**
 * A whole number typed into an operation's field, within bounds. The text is read as a person wrote it: blank,
 * `3.5`, `-1`, `1e3` or `12abc` are refused here, so the dialog never sends what the API would refuse (or, for a
 * blank replicas field, what `Number('')` would have made a 0).
 */
export function wholeNumber(text: string, bounds: { min: number; max: number }): FieldValue {
  const typed = text.trim();
  if (typed === '') return { problem: 'Enter a number.' };
  if (!/^[+-]?\d+(\.\d*)?$/.test(typed)) return { problem: `"${typed}" is not a number.` };
  const value = Number(typed);
  if (!Number.isInteger(value)) return { problem: 'Enter a whole number.' };
  if (value < bounds.min) return { problem: `At least ${bounds.min}.` };
  if (value > bounds.max) return { problem: `At most ${bounds.max}.` };
  return { value };
}

/** As `wholeNumber`, but a blank field means "not set" (the API's default applies). */
export function optionalWholeNumber(
  text: string,
  bounds: { min: number; max: number },
): FieldValue<number | undefined> {
  return text.trim() === '' ? { value: undefined } : wholeNumber(text, bounds);
}

const unitSeconds = { h: 3600, m: 60, s: 1 } as const;

/**
 * A duration as the agent takes one (`90s`, `5m`, `1h30m`: hours, minutes, seconds, whole or decimal), in
 * seconds, from one second to `maxSeconds` (the agent's bounds for a drain).
 */
export function duration(text: string, maxSeconds: number): FieldValue {
  const typed = text.trim();
  if (typed === '') return { problem: 'Enter a duration, e.g. 90s or 5m.' };
  const match = /^(?=\d)(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(typed);
  if (!match) return { problem: `"${typed}" is not a duration like 90s, 5m or 1h30m.` };
  const [, h, m, s] = match;
  const value =
    Number(h ?? 0) * unitSeconds.h + Number(m ?? 0) * unitSeconds.m + Number(s ?? 0) * unitSeconds.s;
  if (value < 1) return { problem: 'At least 1s.' };
  if (value > maxSeconds) return { problem: `At most ${maxSeconds / 60}m.` };
  return { value };
}

/** The value of a field `problem` has already let through (the panel runs no action whose choices have one). */
export function accepted<T>(field: FieldValue<T>): T {
  if (field.problem !== undefined) throw new Error(`a refused value reached the request: ${field.problem}`);
  return field.value as T;
}
