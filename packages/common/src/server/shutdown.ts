import type { Logger } from 'pino';

const shutdownGraceMs = 10_000;

/**
 * The exit code of a `binnacle <command>` server, once SIGINT or SIGTERM stopped it: 0 when `close` finished
 * within 10 s, 1 when it did not, or when a second signal came (exit at once).
 */
export function exitOnSignal(
  command: string,
  close: () => Promise<void>,
  onSignal?: () => void,
): Promise<number> {
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) {
        process.stderr.write(`binnacle ${command}: ${signal} again, exiting now\n`);
        resolveExit(1);
        return;
      }
      stopping = true;
      onSignal?.();
      process.stderr.write(`binnacle ${command}: ${signal}, shutting down\n`);
      const forced = setTimeout(() => resolveExit(1), shutdownGraceMs);
      forced.unref();
      void close().then(() => {
        clearTimeout(forced);
        resolveExit(0);
      });
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
  });
}

let crashHandled = false;

/**
 * Installs the one process-wide handler of `unhandledRejection` and `uncaughtException`: the failure goes to the
 * structured log as a fatal line naming the event, then the process exits with 1. State after such a failure is
 * unknown, so nothing is closed gracefully; pino flushes its pending lines on exit. Installing twice (both
 * servers in one process) keeps the first.
 */
export function exitOnCrash(command: string, log: Pick<Logger, 'fatal'>): void {
  if (crashHandled) return;
  crashHandled = true;
  const crash = (event: 'unhandledRejection' | 'uncaughtException') => (error: unknown) => {
    log.fatal({ err: error, event }, `binnacle ${command}: ${event}, exiting`);
    process.exit(1);
  };
  process.on('unhandledRejection', crash('unhandledRejection'));
  process.on('uncaughtException', crash('uncaughtException'));
}
