import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { AppError } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import type { Impersonation } from '../../kube/client.ts';

/** How long a helm action may wait for its objects (`--wait`), as Radar does; the process gets a minute more. */
export const helmTimeoutSeconds = 300;

/**
 * Runs the helm binary against the agent's cluster: its kubeconfig and context (in a cluster, helm finds the
 * service account itself), as the caller when there is one (`--kube-as-user`/`--kube-as-group`, so the API
 * server authorizes the caller, not the agent), with helm's own files under the agent's data dir. A failure is
 * an AppError by what helm says: not found → 404, forbidden → 403, anything else → 502 with helm's message.
 */
export function runHelm(
  ctx: AgentContext,
  args: string[],
  options: { as?: Impersonation; signal?: AbortSignal } = {},
): Promise<string> {
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
  return new Promise((resolve, reject) => {
    execFile(
      ctx.config.helmBinary ?? 'helm',
      [...args, ...connection, ...identity],
      { env, signal: options.signal, timeout: (helmTimeoutSeconds + 60) * 1000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const message = (stderr.trim().split('\n').at(-1) ?? error.message).replace(/^Error: /, '');
        if ((error as { code?: string }).code === 'ENOENT')
          return reject(
            new AppError('helm_unavailable', `no helm binary at ${error.path}: set --helm-binary`),
          );
        if (options.signal?.aborted)
          return reject(new AppError('request_timeout', `helm was stopped: ${message}`));
        if (/not found/i.test(message)) return reject(new AppError('not_found', message));
        if (/forbidden/i.test(message)) return reject(new AppError('forbidden', message));
        reject(new AppError('cluster_error', `helm ${args[0]}: ${message}`));
      },
    );
  });
}
