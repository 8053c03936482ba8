import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ManagedProcess {
  name: string;
  pid: number;
  /** The executable, used to tell our process from an unrelated one that reused the pid. */
  binary: string;
  logFile: string;
}

/**
 * Starts a daemon in its own process group (so stopping it also stops what it spawned, such as the commands
 * kwok runs for `kubectl exec`), with stdout and stderr appended to its log file.
 */
export function startProcess(
  name: string,
  binary: string,
  args: string[],
  logFile: string,
  env: NodeJS.ProcessEnv = process.env,
): ManagedProcess {
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', log, log], env });
    if (child.pid === undefined) throw new Error(`${name} could not be started (${binary})`);
    child.unref();
    return { name, pid: child.pid, binary, logFile };
  } finally {
    closeSync(log);
  }
}

/** State letter and process group of a pid from /proc (undefined when it is gone). */
function procStat(pid: number | string): { state: string; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

const running = (state: string | undefined) => state !== undefined && state !== 'Z' && state !== 'X';

/** True while the process runs and is still the one we started (not a zombie, not a reused pid). */
export function isAlive(proc: Pick<ManagedProcess, 'pid' | 'binary'>): boolean {
  try {
    if (!running(procStat(proc.pid)?.state)) return false;
    const argv0 = readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8').split('\0')[0];
    return argv0 === proc.binary;
  } catch {
    return false;
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** True while any non-zombie process is left in the group (zombies wait for init to reap them). */
export function groupAlive(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat?.pgrp === pgid && running(stat.state)) return true;
  }
  return false;
}

/**
 * Stops processes in reverse start order: `signal` (SIGTERM unless a program wants another for a fast stop)
 * to the whole group, SIGKILL after the grace period.
 */
export async function stopProcesses(
  procs: readonly ManagedProcess[],
  graceMs = 10_000,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  for (const proc of [...procs].reverse()) {
    const running = () => isAlive(proc) || groupAlive(proc.pid);
    if (!running()) continue;
    signalGroup(proc.pid, signal);
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && running()) await sleep(50);
    if (running()) {
      signalGroup(proc.pid, 'SIGKILL');
      const killDeadline = Date.now() + 5000;
      while (Date.now() < killDeadline && running()) await sleep(50);
    }
  }
}

/** The last lines of a log file, for error messages. */
export async function logTail(path: string, lines = 15): Promise<string> {
  try {
    const text = await readFile(path, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
