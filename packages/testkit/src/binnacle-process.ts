import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { repoRoot } from './cluster/paths.ts';

export interface BinnacleRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code (null after a signal), or a rejection naming the command when it runs longer than `ms`. */
  exit(ms?: number): Promise<number | null>;
}

const running = new Set<ChildProcess>();
const defaultExitMs = 10_000;

/**
 * `binnacle <args>` as its own process, as a person runs it. The BINNACLE_* settings of the shell running the
 * tests are left out (pass the ones a test wants in `env`), so a developer's own settings never leak in.
 */
export function runBinnacle(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
  /** The command's entry: the TypeScript sources, or the release bundle (`packages/cli/dist/binnacle.js`). */
  script = 'packages/cli/src/binnacle.ts',
): BinnacleRun {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('BINNACLE_')),
  );
  return runCommand(process.execPath, [...nodeArgs, resolve(repoRoot, script), ...args], {
    ...inherited,
    ...env,
  });
}

/**
 * A program as its own process with exactly `env` (nothing inherited), its output kept; ended by
 * `killBinnacles` like `runBinnacle`'s. The single executable and the image's chroot run this way.
 */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): BinnacleRun {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      running.delete(child);
      resolveExit(code);
    });
    // A program that cannot start (not found, not executable) ends with its reason in stderr, exit code null.
    child.once('error', (error) => {
      running.delete(child);
      stderr += `${error.message}\n`;
      resolveExit(null);
    });
  });
  const exit = (ms = defaultExitMs) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${command} ${args.join(' ')} still running after ${ms} ms:\n${stderr}`)),
        ms,
      );
    });
    return Promise.race([exited, late]).finally(() => clearTimeout(timer));
  };
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** SIGKILL for every `binnacle` a test started and left running (a failed assertion must not leave a port held). */
export function killBinnacles(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** A process's resident memory now and its peak (VmHWM), in MB, from /proc (Linux). */
export async function processMemory(
  pid: number,
): Promise<{ rssMB: number; peakMB: number; anonMB: number; fileMB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return {
    rssMB: kb('VmRSS') / 1024,
    peakMB: kb('VmHWM') / 1024,
    anonMB: kb('RssAnon') / 1024,
    fileMB: kb('RssFile') / 1024,
  };
}
