#!/usr/bin/env node
/** The `binnacle` command: `binnacle agent [flags]`, `binnacle desktop [flags]`, `binnacle hub [flags]`. */
import { enableCompileCache } from 'node:module';
import { collectWhenIdle, heapTuning, keepHeapNearLiveData } from './heap.ts';
import { restartWithMallocSettings } from './malloc.ts';

// First, before any work: a restart in place loses nothing yet (ADR 0132).
restartWithMallocSettings(process.argv[2]);

// V8 keeps the compiled code of every module between runs (in the OS temp directory; a read-only one only
// skips it), so a restart does not parse and compile them again.
enableCompileCache();
keepHeapNearLiveData(heapTuning(process.argv[2]));
collectWhenIdle();

const usage = `usage: binnacle <command> [flags]

commands:
  agent    serve the Binnacle API and UI for one cluster (binnacle agent --help)
  desktop  the agent for this machine: loopback only, with the desktop helpers (binnacle desktop --help)
  hub      serve the hub in front of many agents: organizations, sign-in, tokens (binnacle hub --help)
`;

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  // Each command loads only its own code: an agent never loads the hub's database drivers, nor the hub the agent's.
  if (command === 'agent') return (await import('@binnacle/agent')).runAgent(rest);
  if (command === 'desktop') return (await import('@binnacle/agent')).runDesktop(rest);
  if (command === 'hub') return (await import('@binnacle/hub')).runHub(rest);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`binnacle: unknown command "${command}"\n${usage}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `binnacle: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
