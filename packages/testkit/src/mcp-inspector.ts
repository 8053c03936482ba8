import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './cluster/paths.ts';

const launcher = join(
  repoRoot,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const trace = join(repoRoot, 'packages/testkit/src/mcp-inspector-trace.ts');

export interface InspectorRun {
  /** The process's exit code: 0 answered, 5 a tool answered isError, 4 the server was unreachable, … */
  code: number;
  /** What the method answered (`{tools}` for tools/list, `{content, isError?}` for tools/call), when it did. */
  result?: unknown;
  /** The CLI's error envelope on stderr (`{code, message}`), when it wrote one. */
  error?: { code: string; message: string };
  stdout: string;
  /** What the CLI wrote to stderr, after one `http: METHOD path → status` line per exchange it made. */
  stderr: string;
}

const parsed = (text: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/**
 * Runs the MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`) with these arguments and `--format json`,
 * as an MCP client other than our own would: `runInspector([url, '--transport', 'http', '--method', 'tools/list'])`.
 * Killed after `timeoutMs`; its catalog and client config live in a temporary home, removed afterwards.
 */
export async function runInspector(
  args: string[],
  options: { timeoutMs?: number } = {},
): Promise<InspectorRun> {
  const home = await mkdtemp(join(tmpdir(), 'binnacle-inspector-'));
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', trace, launcher, '--cli', ...args, '--format', 'json'],
          {
            timeout: options.timeoutMs ?? 30_000,
            killSignal: 'SIGKILL',
            maxBuffer: 16 * 1024 * 1024,
            env: {
              ...process.env,
              HOME: home,
              MCP_CATALOG_PATH: join(home, 'mcp.json'),
              MCP_CLIENT_CONFIG_PATH: join(home, 'client.json'),
            },
          },
          (error, out, err) => {
            if (error?.killed)
              reject(new Error(`the inspector ran past its timeout: ${args.join(' ')}\n${err}`));
            else
              resolve({
                code: typeof error?.code === 'number' ? error.code : error ? 1 : 0,
                stdout: out,
                stderr: err,
              });
          },
        );
      },
    );
    const answer = parsed(stdout.trim());
    // stderr holds the trace's `http:` lines, then the CLI's error envelope, if any.
    const envelope = parsed(stderr.trim().split('\n').at(-1) ?? '');
    return {
      code,
      ...(answer && 'result' in answer ? { result: answer.result } : {}),
      ...(envelope && 'error' in envelope ? { error: envelope.error as InspectorRun['error'] } : {}),
      stdout,
      stderr,
    };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
