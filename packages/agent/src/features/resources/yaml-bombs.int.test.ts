import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BinnacleRun,
  freePort,
  killBinnacles,
  processMemory,
  runBinnacle,
  seeded,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, type SentBody, sendFrom } from '../../testing/index.ts';

/**
 * YAML aliases against an agent running as its own process, its resident memory read from /proc (issue 37): a
 * 4.9 MB ConfigMap whose value is aliased 99 times took the agent from 164 MB to 1 349 MB; 907 KB of Helm values
 * aliased 1 000 times answered 500.
 */
const proxyAddress = '127.0.0.2';
const viewer = 'yaml-viewer@example.com';
const editor = 'yaml-editor@example.com';
const allowedGrowthMB = 50;

let dir: string;
let url: string;
let agent: BinnacleRun;
let ns: { name: string; remove: () => Promise<void> };
const unbind: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-yaml-bombs-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const cluster = testCluster();
  agent = runBinnacle(
    [
      'agent',
      '--port',
      String(port),
      '--no-browser',
      '--auth-mode',
      'proxy',
      '--auth-proxy-addresses',
      proxyAddress,
    ],
    { HOME: dir, KUBECONFIG: cluster.kubeconfigPath(), BINNACLE_DATA_DIR: dir },
  );
  ns = await cluster.namespace('yaml-bombs');
  unbind.push(
    await bindInNamespace(ns.name, { kind: 'User', name: viewer }),
    await bindInNamespace(seeded.helmRelease.namespace, { kind: 'User', name: editor }, 'edit'),
  );
  await waitUntil(
    'binnacle agent synced',
    async () => {
      const res = await fetch(`${url}/api/health`);
      return ((await res.json()) as { status: string }).status === 'healthy';
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}, 120_000);

afterAll(async () => {
  if (agent?.child.exitCode === null) {
    agent.child.kill('SIGTERM');
    await agent.exit(15_000).catch(() => killBinnacles());
  }
  for (const remove of unbind) await remove();
  await ns?.remove();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A request as `user` through the trusted proxy, with the peak RSS it cost the agent. */
async function measured(user: string, path: string, body: SentBody) {
  const pid = agent.child.pid as number;
  const before = await processMemory(pid);
  // Resets VmHWM to the current RSS: the peak read afterwards is this request's alone.
  await writeFile(`/proc/${pid}/clear_refs`, '5');
  const answer = await sendFrom({ url }, path, { 'x-forwarded-user': user }, proxyAddress, 'POST', body);
  const after = await processMemory(pid);
  process.stderr.write(
    `[yaml] ${path}: ${answer.status}, RSS ${before.rssMB.toFixed(1)} MB before, peak ${after.peakMB.toFixed(1)} MB\n`,
  );
  return { ...answer, growthMB: after.peakMB - before.rssMB };
}

describe('YAML aliases', () => {
  it(`refuse a 4.9 MB ConfigMap aliased 99 times with 413, before the agent grows by ${allowedGrowthMB} MB`, async () => {
    const yaml = [
      'apiVersion: v1',
      'kind: ConfigMap',
      `metadata: {name: bomb, namespace: ${ns.name}}`,
      'data:',
      `  k0: &v ${'x'.repeat(4_900_000)}`,
      ...Array.from({ length: 99 }, (_, i) => `  k${i + 1}: *v`),
      '',
    ].join('\n');
    const answer = await measured(viewer, '/api/resources/apply?dryRun=true', {
      text: yaml,
      type: 'application/yaml',
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      code: 'payload_too_large',
      error: 'document 1: expands to more than 20 MiB through its aliases',
    });
    expect(answer.growthMB).toBeLessThan(allowedGrowthMB);
  }, 60_000);

  it('refuse 907 KB of Helm values aliased 1 000 times with a 4xx on values/preview', async () => {
    const values = `big: &v ${'y'.repeat(907_000)}\ncopies:\n${Array(1000).fill('  - *v').join('\n')}\n`;
    const { namespace, name } = seeded.helmRelease;
    const answer = await measured(editor, `/api/pkgmgr/releases/${namespace}/${name}/values/preview`, {
      json: { values },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      code: 'payload_too_large',
      error: 'values: expands to more than 20 MiB through its aliases',
    });
    expect(answer.growthMB).toBeLessThan(allowedGrowthMB);
  }, 60_000);
});
