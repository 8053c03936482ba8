import { callerPattern, keepMatching, PatternError } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import { redactText } from '../../scope/redact.ts';

/**
 * The items whose line matches grep (all without one). grep is RE2, case-insensitive, its text taken literally
 * when it does not compile (ADR 0045); a pattern that costs more than its budget is the caller's 400.
 */
export async function grepped<T>(
  items: readonly T[],
  grep: string | undefined,
  lineOf: (item: T) => string,
): Promise<T[]> {
  if (!grep) return [...items];
  try {
    return await keepMatching(items, callerPattern(grep), lineOf);
  } catch (error) {
    if (error instanceof PatternError) throw badRequest(`grep: ${error.message}`);
    throw error;
  }
}

/** Log lines as a tool answers them: those matching grep (all without one), credentials scrubbed. */
export async function shownLines(lines: string[], grep?: string): Promise<string[]> {
  return (await grepped(lines, grep, (line) => line)).map(redactText);
}
