import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { helmBinary, testCluster } from '@binnacle/testkit';

/** A chart whose pre-upgrade hook is a Job that cannot be scheduled and gives up after 3 s (DeadlineExceeded). */
const chartFiles: Record<string, string> = {
  'Chart.yaml': 'apiVersion: v2\nname: hooky\nversion: 0.1.0\n',
  'values.yaml': 'release: 1\n',
  'templates/config.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hooky-config\ndata:\n  release: "{{ .Values.release }}"\n',
  'templates/migrate.yaml': `apiVersion: batch/v1
kind: Job
metadata:
  name: hooky-migrate
  annotations:
    helm.sh/hook: pre-upgrade
    helm.sh/hook-weight: "-5"
    helm.sh/hook-delete-policy: before-hook-creation
spec:
  backoffLimit: 0
  activeDeadlineSeconds: 3
  template:
    spec:
      restartPolicy: Never
      nodeSelector:
        binnacle.test/no-such-node: "true"
      containers:
        - name: migrate
          image: shop/migrate:{{ .Values.release }}
`,
};

async function helm(args: string[]) {
  const home = await mkdtemp(join(tmpdir(), 'binnacle-helm-'));
  const env = {
    ...process.env,
    KUBECONFIG: testCluster().kubeconfigPath(),
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
  };
  return promisify(execFile)(await helmBinary(), args, { env });
}

/**
 * Release `hooky` in `namespace` as a failed upgrade leaves it, with the real helm: installed (revision 1), then
 * upgraded with --rollback-on-failure while its pre-upgrade hook fails, so Helm records the hook and revision 2
 * as failed and rolls back to 1 as revision 3. Answers what helm printed on its error stream.
 */
export async function releaseWithFailedHook(namespace: string): Promise<string> {
  const chart = await mkdtemp(join(tmpdir(), 'binnacle-hooky-'));
  await mkdir(join(chart, 'templates'));
  for (const [file, text] of Object.entries(chartFiles)) await writeFile(join(chart, file), text);
  await helm(['install', 'hooky', chart, '--namespace', namespace]);
  const upgrade = ['upgrade', 'hooky', chart, '--namespace', namespace, '--set', 'release=2'];
  return helm([...upgrade, '--rollback-on-failure', '--timeout', '60s']).then(
    () => 'the upgrade succeeded',
    (error: { stderr?: string }) => error.stderr ?? String(error),
  );
}
