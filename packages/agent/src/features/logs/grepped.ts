import {
  callerPattern,
  keepMatching,
  type LogLevel,
  logLevels,
  PatternError,
  parseStructured,
} from '@binnacle/common';
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

/**
 * The items whose line is JSON or logfmt at `level` or more severe (all without one), levels read as the web UI's
 * structured view reads them (docs/adr/0118-structured-logs-and-dock.md); lines without a level are left out.
 */
export function leveled<T>(
  items: readonly T[],
  level: LogLevel | undefined,
  lineOf: (item: T) => string,
): T[] {
  if (!level) return [...items];
  const worst = logLevels.indexOf(level);
  return items.filter((item) => {
    const found = parseStructured(lineOf(item))?.level;
    return found !== undefined && logLevels.indexOf(found) <= worst;
  });
}

/** Log lines as a tool answers them: those at level and matching grep (all without them), credentials scrubbed. */
export async function shownLines(lines: string[], grep?: string, level?: LogLevel): Promise<string[]> {
  return (
    await grepped(
      leveled(lines, level, (line) => line),
      grep,
      (line) => line,
    )
  ).map(redactText);
}
