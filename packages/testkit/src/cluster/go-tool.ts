import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths.ts';

const run = promisify(execFile);

/**
 * Builds a Go tool once from the Go module proxy with its test/cluster/go/<dir>/build.sh (cached under
 * ~/.cache/binnacle, keyed by its go.sum) and returns the binary's path.
 */
export async function goToolBinary(dir: string, label: string): Promise<string> {
  const script = join(repoRoot, 'test/cluster/go', dir, 'build.sh');
  const { stdout } = await run('bash', [script], { maxBuffer: 1 << 20, timeout: 900_000 }).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(`building ${label} failed: ${error.stderr?.trim() || error.message}`);
    },
  );
  return stdout.trim().split('\n').at(-1) ?? '';
}
