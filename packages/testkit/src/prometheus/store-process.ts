import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { type ManagedProcess, signalGroup, startProcess, stopProcesses } from '../cluster/processes.ts';
import { waitUntil } from '../cluster/wait.ts';

/** A metrics store the testkit runs on loopback with generated history. */
export interface MetricsStoreServer {
  kind: 'prometheus' | 'victoriametrics';
  /** http://127.0.0.1:<port> — the Prometheus query API is under /api/v1 for both. */
  url: string;
  port: number;
  /** Temporary directory holding the data and the log. */
  dir: string;
  /** Stops the process and keeps the data (a store that went away mid-test). */
  halt(): Promise<void>;
  /** Starts it again on the same port and data after `halt`. */
  resume(): Promise<void>;
  /**
   * Stops the process where it is (SIGSTOP): connections are still accepted, nothing answers — a store that
   * hangs, which only a client's time-out ends. `thaw` lets it go on.
   */
  freeze(): void;
  thaw(): void;
  /** Stops it and removes `dir`. */
  stop(): Promise<void>;
}

interface Launch {
  kind: MetricsStoreServer['kind'];
  binary: string;
  args: string[];
  port: number;
  dir: string;
  logFile: string;
  /** Path answering 200 once queries are served. */
  readyPath: string;
}

/**
 * Runs a store in its own process group, killed when this process exits even if `stop` is never called; halt and
 * resume restart the same process line on the same data.
 */
export async function runStore(launch: Launch): Promise<MetricsStoreServer> {
  const url = `http://127.0.0.1:${launch.port}`;
  let proc: ManagedProcess | undefined;
  const killOnExit = () => {
    if (proc) signalGroup(proc.pid, 'SIGKILL');
    rmSync(launch.dir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  const start = async () => {
    proc = startProcess(launch.kind, launch.binary, launch.args, launch.logFile);
    await waitUntil(
      `${launch.kind} on ${url}`,
      async () => (await fetch(`${url}${launch.readyPath}`, { signal: AbortSignal.timeout(2000) })).ok,
      { timeoutMs: 60_000, process: proc },
    );
  };
  const halt = async () => {
    // A frozen store could not act on the SIGTERM that asks it to stop.
    if (proc) signalGroup(proc.pid, 'SIGCONT');
    if (proc) await stopProcesses([proc], 10_000);
    proc = undefined;
  };
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await halt();
      await rm(launch.dir, { recursive: true, force: true, maxRetries: 5 });
      process.off('exit', killOnExit);
    })();
    return stopping;
  };
  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => () => {
    if (!proc) throw new Error(`${launch.kind} on ${url} is not running`);
    signalGroup(proc.pid, name);
  };
  return {
    kind: launch.kind,
    url,
    port: launch.port,
    dir: launch.dir,
    halt,
    resume: start,
    freeze: signal('SIGSTOP'),
    thaw: signal('SIGCONT'),
    stop,
  };
}
