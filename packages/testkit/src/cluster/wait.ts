import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive, logTail, type ManagedProcess } from './processes.ts';

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** When given, the wait fails at once if this process exits, and the message quotes its log. */
  process?: ManagedProcess;
}

/**
 * Polls `check` until it returns true. On timeout the error names what did not come up, the last failure and,
 * for a process, the tail of its log — never a bare "timeout".
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  options: WaitOptions,
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = 'not ready yet';
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    const proc = options.process;
    if (proc && !isAlive(proc)) {
      throw new Error(`${what}: ${proc.name} exited (log ${proc.logFile}):\n${await logTail(proc.logFile)}`);
    }
    if (Date.now() > deadline) {
      const tail = proc ? `\nlast lines of ${proc.logFile}:\n${await logTail(proc.logFile)}` : '';
      throw new Error(
        `${what} did not come up within ${options.timeoutMs / 1000}s (last: ${lastError})${tail}`,
      );
    }
    await sleep(options.intervalMs ?? 250);
  }
}
