import { execFile } from 'node:child_process';
import type { ClusterState } from './state.ts';

/** Runs kubectl as the cluster's admin, optionally feeding it a document on stdin; resolves with stdout. */
export function kubectl(
  state: Pick<ClusterState, 'kubeconfigs'>,
  kubectlPath: string,
  args: string[],
  stdin?: string,
): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = execFile(
      kubectlPath,
      ['--kubeconfig', state.kubeconfigs.admin, ...args],
      { maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`kubectl ${args.slice(0, 2).join(' ')} failed: ${stderr.trim() || error.message}`),
          );
        else resolveRun(stdout);
      },
    );
    child.stdin?.end(stdin ?? '');
  });
}

/** Server-side apply, idempotent, owned by `fieldManager`. */
export const applyArgs = (fieldManager: string) => [
  'apply',
  '--server-side',
  '--force-conflicts',
  `--field-manager=${fieldManager}`,
];

/** The object names in `kubectl … -o name` output (`<resource>.<group>/<name>`, one a line). */
export function appliedNames(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.includes('/'))
    .map((line) => line.slice(line.indexOf('/') + 1));
}
