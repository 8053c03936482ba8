import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface KwokSimulation {
  /** CRI-format file served as every container's log (followed while it grows). */
  logsFile: string;
  previousLogsFile: string;
  /** Directory that `kubectl exec` commands run in (they run as local processes on this host). */
  execWorkDir: string;
  /** Local port that pod ports 80 and 8080 forward to; every other port echoes its bytes back. */
  httpTargetPort: number;
}

const apiVersion = 'kwok.x-k8s.io/v1alpha1';

/**
 * kwok's config: the Stage documents of the pinned release (node and pod lifecycles, volume provisioning)
 * plus cluster-wide Logs, Exec and PortForward rules that make every simulated pod answer like a real one.
 */
export async function writeKwokConfig(path: string, stagesDir: string, sim: KwokSimulation): Promise<void> {
  const stageFiles = (await readdir(stagesDir)).filter((file) => file.endsWith('.yaml')).sort();
  const stages = await Promise.all(stageFiles.map((file) => readFile(join(stagesDir, file), 'utf8')));
  const rules = [
    {
      apiVersion,
      kind: 'ClusterLogs',
      metadata: { name: 'binnacle-all-pods' },
      spec: { logs: [{ logsFile: sim.logsFile, previousLogsFile: sim.previousLogsFile, follow: true }] },
    },
    {
      apiVersion,
      kind: 'ClusterExec',
      metadata: { name: 'binnacle-all-pods' },
      spec: { execs: [{ local: { workDir: sim.execWorkDir } }] },
    },
    {
      apiVersion,
      kind: 'ClusterPortForward',
      metadata: { name: 'binnacle-all-pods' },
      spec: {
        forwards: [
          { ports: [80, 8080], target: { address: '127.0.0.1', port: sim.httpTargetPort } },
          { command: ['cat'] },
        ],
      },
    },
  ];
  const documents = [...stages.map((text) => text.trim()), ...rules.map((rule) => stringify(rule).trim())];
  await writeFile(path, `${documents.join('\n---\n')}\n`);
}
