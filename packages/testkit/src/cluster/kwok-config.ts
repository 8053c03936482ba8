import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface KwokSimulation {
  /** CRI-format file served as every container's log (followed while it grows). */
  logsFile: string;
  /** The log of the containers in `structuredLogsNamespace` instead: tests write JSON and logfmt lines there. */
  structuredLogsFile: string;
  previousLogsFile: string;
  /** Directory that `kubectl exec` commands run in (they run as local processes on this host). */
  execWorkDir: string;
  /** Local port that pod ports 80 and 8080 forward to; every other port echoes its bytes back. */
  httpTargetPort: number;
}

const apiVersion = 'kwok.x-k8s.io/v1alpha1';

/**
 * The namespace whose simulated containers serve a log of their own (`structuredLogsFile`): what a test writes
 * there (structured lines, docs/streams.md) stays out of the log every other pod serves, which other tests read.
 */
export const structuredLogsNamespace = 'binnacle-structured-logs';

const usageExpression = (resource: 'cpu' | 'memory', idle: string) => {
  const annotation = `"kwok.x-k8s.io/usage-${resource}"`;
  return `${annotation} in pod.metadata.annotations ? Quantity(pod.metadata.annotations[${annotation}]) : Quantity("${idle}")`;
};

/**
 * kwok's config: the documents of the pinned release (node and pod lifecycle Stages, volume provisioning, the
 * kubelet resource Metric) plus cluster-wide Logs, Exec, ResourceUsage and PortForward rules that make every
 * simulated pod answer like a real one.
 */
export async function writeKwokConfig(path: string, stagesDir: string, sim: KwokSimulation): Promise<void> {
  const stageFiles = (await readdir(stagesDir)).filter((file) => file.endsWith('.yaml')).sort();
  const stages = await Promise.all(stageFiles.map((file) => readFile(join(stagesDir, file), 'utf8')));
  const rules = [
    {
      // kwok serves a container the first ClusterLogs that matches it.
      apiVersion,
      kind: 'ClusterLogs',
      metadata: { name: 'binnacle-structured-logs' },
      spec: {
        selector: { matchNamespaces: [structuredLogsNamespace] },
        logs: [{ logsFile: sim.structuredLogsFile, previousLogsFile: sim.previousLogsFile, follow: true }],
      },
    },
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
      // What the simulated containers use, as metrics-server reads it through the Metric served on every node's
      // /metrics/resource: a pod's `kwok.x-k8s.io/usage-cpu` / `-memory` annotations, else a small idle figure.
      apiVersion,
      kind: 'ClusterResourceUsage',
      metadata: { name: 'binnacle-all-pods' },
      spec: {
        usages: [
          {
            usage: {
              cpu: { expression: usageExpression('cpu', '2m') },
              memory: { expression: usageExpression('memory', '24Mi') },
            },
          },
        ],
      },
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
