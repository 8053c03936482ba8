import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { writeKwokConfig } from './kwok-config.ts';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('writeKwokConfig', () => {
  it('joins the release stages with logs, exec, usage and port-forward rules for every pod', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kwok-config-'));
    await writeFile(
      join(dir, 'b-stage.yaml'),
      'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: b}\n',
    );
    await writeFile(
      join(dir, 'a-stage.yaml'),
      'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: a}\n',
    );
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const path = join(dir, 'kwok.yaml');
    await writeKwokConfig(path, dir, {
      logsFile: '/x/current.log',
      structuredLogsFile: '/x/structured.log',
      previousLogsFile: '/x/previous.log',
      execWorkDir: '/x/root',
      httpTargetPort: 4242,
    });
    const docs = parseAllDocuments(await readFile(path, 'utf8')).map((doc) => doc.toJSON());
    expect(docs.map((doc) => `${doc.kind}/${doc.metadata.name}`)).toEqual([
      'Stage/a',
      'Stage/b',
      'ClusterLogs/binnacle-structured-logs',
      'ClusterLogs/binnacle-all-pods',
      'ClusterExec/binnacle-all-pods',
      'ClusterResourceUsage/binnacle-all-pods',
      'ClusterPortForward/binnacle-all-pods',
    ]);
    expect(docs[5].spec.usages[0].usage.cpu.expression).toBe(
      '"kwok.x-k8s.io/usage-cpu" in pod.metadata.annotations ? Quantity(pod.metadata.annotations["kwok.x-k8s.io/usage-cpu"]) : Quantity("2m")',
    );
    expect(docs[3].spec.logs).toEqual([
      { logsFile: '/x/current.log', previousLogsFile: '/x/previous.log', follow: true },
    ]);
    expect(docs[2].spec).toEqual({
      selector: { matchNamespaces: ['binnacle-structured-logs'] },
      logs: [{ logsFile: '/x/structured.log', previousLogsFile: '/x/previous.log', follow: true }],
    });
    expect(docs[6].spec.forwards).toEqual([
      { ports: [80, 8080], target: { address: '127.0.0.1', port: 4242 } },
      { command: ['cat'] },
    ]);
  });
});
