import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AppError } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import type { PkgmgrContext } from './module.ts';

/** How long a helm action may wait for its objects (`--wait`), as Radar does; the process gets a minute more. */
export const helmTimeoutSeconds = 300;
/** After SIGTERM (helm then marks the release failed and stops waiting), how long before SIGKILL. */
const stopGraceMs = 10_000;
const maxOutputBytes = 64 << 20;

export interface HelmRunOptions {
  /** The caller to act as (`--kube-as-user`/`--kube-as-group`), so the API server authorizes the caller. */
  as?: Impersonation;
  /** Aborting stops helm: SIGTERM to its process group, SIGKILL after ten seconds. */
  signal?: AbortSignal;
  /** Each line helm writes to stderr (its progress with `--debug`), as it comes. */
  onLine?: (line: string) => void;
}

/** helm's message: from its last `Error:` line to the end (a schema failure spans several lines). */
function helmMessage(stderr: string, fallback: string): string {
  const lines = stderr.trim().split('\n');
  const start = lines.findLastIndex((line) => line.startsWith('Error: '));
  const message = start === -1 ? (lines.at(-1) ?? '') : lines.slice(start).join('\n');
  return message.replace(/^Error: /, '').trim() || fallback;
}

/** An AppError by what helm says, so the answer's status means what went wrong. */
function helmError(args: string[], message: string, aborted: boolean): AppError {
  if (aborted) return new AppError('request_timeout', `helm was stopped: ${message}`);
  if (/don't meet the specifications of the schema/i.test(message))
    return new AppError('values_invalid', message);
  if (/another operation \(install\/upgrade\/rollback\) is in progress/i.test(message))
    return new AppError('conflict', message);
  if (/cannot re-use a name that is still in use/i.test(message))
    return new AppError('already_exists', message);
  if (/not found/i.test(message)) return new AppError('not_found', message);
  if (/forbidden/i.test(message)) return new AppError('forbidden', message);
  return new AppError('cluster_error', `helm ${args[0]}: ${message}`);
}

/**
 * Runs the helm binary against the agent's cluster: its kubeconfig and context (in a cluster, helm finds the
 * service account itself), as the caller when there is one, with helm's own files under the agent's data dir,
 * in a process group of its own so stopping it leaves nothing behind. Resolves with stdout; a failure is an
 * AppError by what helm says (schema → 422, in progress → 409, not found → 404, forbidden → 403, else 502).
 */
export function runHelm(ctx: PkgmgrContext, args: string[], options: HelmRunOptions = {}): Promise<string> {
  const target = ctx.cluster.target;
  const connection =
    target.source === 'kubeconfig' ? ['--kube-context', target.contextName] : ([] as string[]);
  const identity = options.as
    ? ['--kube-as-user', options.as.user, ...options.as.groups.flatMap((g) => ['--kube-as-group', g])]
    : [];
  const home = join(ctx.config.dataDir, 'helm');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    ...(target.source === 'kubeconfig' ? { KUBECONFIG: target.kubeconfigFiles.join(':') } : {}),
  };
  const binary = ctx.config.helmBinary ?? 'helm';
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args, ...connection, ...identity], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let partial = '';
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const stop = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const onAbort = () => {
      stop('SIGTERM');
      killTimer = setTimeout(() => stop('SIGKILL'), stopGraceMs);
    };
    const deadline = setTimeout(() => stop('SIGKILL'), (helmTimeoutSeconds + 60) * 1000);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= maxOutputBytes) stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < maxOutputBytes) stderr += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) options.onLine?.(line);
    });
    const finish = (error?: AppError) => {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(Buffer.concat(stdout).toString('utf8'));
    };
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        error.code === 'ENOENT'
          ? new AppError('helm_unavailable', `no helm binary at ${binary}: set --helm-binary`)
          : new AppError('internal_error', `helm could not be run: ${error.message}`),
      ),
    );
    child.on('close', (code, signal) => {
      // Whatever helm started in its group goes with it.
      stop('SIGKILL');
      clearTimeout(killTimer);
      if (partial.trim()) options.onLine?.(partial);
      if (code === 0) return finish();
      const message = helmMessage(stderr, `helm exited with ${signal ?? code}`);
      finish(helmError(args, message, options.signal?.aborted ?? false));
    });
  });
}
