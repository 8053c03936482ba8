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
