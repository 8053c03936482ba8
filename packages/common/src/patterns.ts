import { RE2JS, RE2JSException } from 're2js';

/**
 * Regular expressions whose text comes from outside the program (a caller's grep, a Secret's registry glob) run
 * on RE2 (`re2js`), whose matching time is linear in the input: a backtracking engine such as `RegExp` takes
 * exponential time on patterns like `^(.?){18}.{18}#`, on the agent's only thread (ADR 0045). RE2 syntax has no
 * backreferences and no lookaround.
 */
export interface LinearPattern {
  /** Whether the pattern matches anywhere in text, as `RegExp.prototype.test` without the `g` flag. */
  test(text: string): boolean;
}

/** The longest pattern a caller may send. */
export const callerPatternMaxChars = 256;

export class PatternError extends Error {}

/** A regular expression of ours (built from escaped or checked parts) that must match in linear time. */
export function linearRegex(source: string, options: { ignoreCase?: boolean } = {}): LinearPattern {
  return RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
}

/** Text that matches itself literally inside a {@link linearRegex}. */
export const quoteRegex = (text: string): string => RE2JS.quote(text);

/**
 * A caller's pattern, as grep takes it: a case-insensitive RE2 expression, or, when it does not compile as one
 * (`(`, a backreference, a lookahead), its text matched literally.
 */
export function callerPattern(text: string, field = 'grep'): LinearPattern {
  if (text.length > callerPatternMaxChars)
    throw new PatternError(`${field} is longer than ${callerPatternMaxChars} characters`);
  try {
    return linearRegex(text, { ignoreCase: true });
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return linearRegex(quoteRegex(text), { ignoreCase: true });
  }
}

/** How long matching runs before it lets other work in, and how long it may run in all. */
const matchingLimits = { sliceMs: 10, budgetMs: 2_000 };

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The items whose text the pattern matches. Linear is not cheap: a pattern the DFA cannot cache (`a.{20}b`)
 * costs microseconds per character, so over a 5 MB log this gives the event loop a turn every
 * {@link matchingLimits}.sliceMs and gives up when matching alone has taken its budget, with a {@link PatternError}.
 */
export async function keepMatching<T>(
  items: readonly T[],
  pattern: LinearPattern,
  textOf: (item: T) => string,
  limits = matchingLimits,
): Promise<T[]> {
  const kept: T[] = [];
  let spent = 0;
  // Whatever ran before (reading the log) ends its turn here, so it and the first slice never add up.
  await yieldToEventLoop();
  let slice = performance.now();
  for (const [index, item] of items.entries()) {
    if (pattern.test(textOf(item))) kept.push(item);
    const now = performance.now();
    if (spent + (now - slice) > limits.budgetMs)
      throw new PatternError(
        `the pattern took over ${limits.budgetMs} ms on ${index + 1} of ${items.length} lines: make it simpler or read fewer lines`,
      );
    if (now - slice > limits.sliceMs) {
      spent += now - slice;
      await yieldToEventLoop();
      slice = performance.now();
    }
  }
  return kept;
}
