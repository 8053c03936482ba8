import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ManagedProcess, signalGroup } from './cluster/processes.ts';

/** A throwaway server's temporary directory and the process started in it. */
export interface ServerLifetime {
  dir: string;
  /** Records the started process, so `stop` and the exit of this process end it. */
  own(proc: ManagedProcess): ManagedProcess;
  /** Runs the start-up; when it throws, stops whatever it had started, removes the directory and rethrows. */
  starting<T>(start: () => Promise<T>): Promise<T>;
  /** Stops the process (once, however often called) and removes the directory. */
  stop(): Promise<void>;
}

export interface ServerLifetimeOptions {
  /** Prefix of the temporary directory, e.g. `binnacle-redis-`. */
  prefix: string;
  /** Parent of the temporary directory (default: the OS temp dir). */
  base?: string;
  /** How this program stops quickly (its signal and grace period). */
  stopProcess(proc: ManagedProcess): Promise<void>;
}

/**
 * The lifetime every test server shares: a fresh directory, and a process killed with its group when the test
 * process exits even if `stop` is never called, so no server outlives a crashed or interrupted run.
 */
export async function serverLifetime(options: ServerLifetimeOptions): Promise<ServerLifetime> {
  const dir = await mkdtemp(join(options.base ?? tmpdir(), options.prefix));
  let proc: ManagedProcess | undefined;
  const killOnExit = () => {
    if (proc) signalGroup(proc.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (proc) await options.stopProcess(proc);
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
      process.off('exit', killOnExit);
    })();
    return stopping;
  };
  const starting = async <T>(start: () => Promise<T>): Promise<T> => {
    try {
      return await start();
    } catch (error) {
      await stop();
      throw error;
    }
  };
  const own = (started: ManagedProcess) => {
    proc = started;
    return started;
  };
  return { dir, own, starting, stop };
}
