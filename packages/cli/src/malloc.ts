import { isSea } from 'node:sea';

/**
 * glibc's malloc settings of a long-running agent (ADR 0132). glibc gives each thread that allocates an arena of
 * its own, up to eight per core, and an arena keeps the pages its thread freed: zlib's and V8's worker threads
 * compress answers and collect garbage in theirs, so an agent serving lists of 10 000 pods held about 10 MB more
 * than with two arenas. glibc reads these settings once, before any code runs, so a process started without them
 * restarts itself with them (`execve`: the same process, pid and open descriptors).
 */
const agentSettings: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
/** The GLIBC_TUNABLES name that sets the same as a variable. */
const tunableOf: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: 'glibc.malloc.arena_max' };

/** The settings of a `binnacle` command (its first argument): only the agent and the desktop, on Linux. */
export function mallocSettings(
  command: string | undefined,
  platform = process.platform,
): Record<string, string> {
  return platform === 'linux' && (command === 'agent' || command === 'desktop') ? { ...agentSettings } : {};
}

/** The settings `env` does not give yet: a variable already set, or spelled in GLIBC_TUNABLES, is the user's choice. */
export function missingSettings(
  settings: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const tunables = env.GLIBC_TUNABLES ?? '';
  return Object.fromEntries(
    Object.entries(settings).filter(([name]) => {
      const tunable = tunableOf[name];
      return env[name] === undefined && !(tunable && tunables.includes(`${tunable}=`));
    }),
  );
}

/**
 * The arguments that start this process again as it was started. Node's own flags come first; a single
 * executable has none on its command line and sees itself twice in `process.argv` (its path stands for the script).
 */
export function restartArguments(
  argv: readonly string[],
  execArgv: readonly string[],
  singleExecutable: boolean,
): string[] {
  return singleExecutable ? argv.slice(2) : [...execArgv, ...argv.slice(1)];
}

/** Restarts this process in place with the command's malloc settings when its environment lacks them. */
export function restartWithMallocSettings(command: string | undefined): void {
  const missing = missingSettings(mallocSettings(command), process.env);
  if (Object.keys(missing).length === 0 || !process.execve) return;
  const args = restartArguments(process.argv, process.execArgv, isSea());
  try {
    process.execve(process.execPath, [process.execPath, ...args], { ...process.env, ...missing });
  } catch (error) {
    // Only memory is at stake: the command runs on with glibc's defaults.
    process.stderr.write(`binnacle: starting without ${Object.keys(missing).join(', ')}: ${String(error)}\n`);
  }
}
