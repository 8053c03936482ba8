import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { helmBinary, repoRoot, seeded, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const { namespace, name } = seeded.helmRelease;
const base = `/api/pkgmgr/releases/${namespace}/${name}`;
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(async () => {
  await agent?.close();
});

describe('Helm release reads, from the release Secrets in the cache', () => {
  it('lists the release, narrowed to the namespaces asked for', async () => {
    const all = await agent.json<{ releases: { name: string; namespace: string; revision: number }[] }>(
      '/api/pkgmgr/releases',
    );
    // Other files install releases of their own meanwhile: only the seeded namespace is this test's.
    expect(all.releases.filter((r) => r.namespace === namespace)).toEqual([
      expect.objectContaining({ name, namespace, revision: 2, status: 'deployed' }),
    ]);
    const none = await agent.json<{ releases: unknown[] }>('/api/pkgmgr/releases?namespace=demo-shop');
    expect(none.releases).toEqual([]);
  });

  it('shows a release with its history, the objects it manages and their health', async () => {
    const detail = await agent.json<{
      revision: number;
      history: { revision: number; status: string; description: string }[];
      resources: { kind: string; name: string; namespace?: string; status: string }[];
      notes: string;
    }>(base);
    expect(detail.revision).toBe(2);
    expect(detail.history.map((h) => [h.revision, h.status])).toEqual([
      [2, 'deployed'],
      [1, 'superseded'],
    ]);
    expect(detail.history[1]?.description).toBe('Install complete');
    expect(detail.resources).toEqual(
      expect.arrayContaining([
        { kind: 'Deployment', apiVersion: 'apps/v1', namespace, name: 'billing', status: 'healthy' },
        expect.objectContaining({ kind: 'Service', name: 'billing', namespace }),
        expect.objectContaining({ kind: 'ConfigMap', namespace }),
      ]),
    );
  });

  it('serves the manifest and the values of any revision, computed values coalesced with the defaults', async () => {
    const newest = await agent.json<{ revision: number; manifest: string }>(`${base}/manifest`);
    const first = await agent.json<{ revision: number; manifest: string }>(`${base}/manifest?revision=1`);
    expect(newest.revision).toBe(2);
    expect(newest.manifest).toContain('3.1.1');
    expect(first.manifest).not.toContain('3.1.1');

    const values = await agent.json<{ userSupplied: unknown; computed?: Record<string, unknown> }>(
      `${base}/values`,
    );
    expect(values).toEqual({
      revision: 2,
      userSupplied: { image: { tag: '3.1.1' }, config: { currency: 'USD' } },
    });
    const computed = await agent.json<{ computed: Record<string, unknown> }>(`${base}/values?all=true`);
    expect(computed.computed).toMatchObject({
      replicaCount: 2,
      image: { repository: 'ghcr.io/binnacle-demo/billing', tag: '3.1.1' },
      config: { currency: 'USD', invoiceDay: '1' },
    });
    expect((await agent.json(`${base}/values?revision=1`)).userSupplied).toEqual({});
  });

  it('diffs two revisions: the changed fields are in the unified diff', async () => {
    const diff = await agent.json<{ revision1: number; revision2: number; diff: string }>(`${base}/diff`);
    expect([diff.revision1, diff.revision2]).toEqual([1, 2]);
    expect(diff.diff).toMatch(/^-.*3\.1\.0/m);
    expect(diff.diff).toMatch(/^\+.*3\.1\.1/m);
    expect(diff.diff).toMatch(/^\+.*USD/m);
    const reversed = await agent.json<{ diff: string }>(`${base}/diff?revision1=2&revision2=1`);
    expect(reversed.diff).toMatch(/^-.*3\.1\.1/m);
  });

  it('answers 404 naming what is missing, and 400 for bad parameters', async () => {
    const missing = await agent.request(`/api/pkgmgr/releases/${namespace}/no-such-release`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'not_found',
      error: expect.stringContaining('no-such-release'),
    });
    const revision = await agent.request(`${base}/manifest?revision=9`);
    expect(revision.status).toBe(404);
    expect(((await revision.json()) as { error: string }).error).toContain('has no revision 9 (it has 1, 2)');
    for (const bad of [
      `${base}/manifest?revision=0`,
      `${base}/diff?revision1=x`,
      '/api/pkgmgr/releases/Bad_NS/x',
    ]) {
      const res = await agent.request(bad);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
  });

  it("answers the API server's 403 when the agent's identity may not list Secrets", async () => {
    const restricted = await startTestAgent({ identity: 'restricted' });
    try {
      const res = await restricted.request(base);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'forbidden',
        error: expect.stringContaining('cannot list resource "secrets"'),
      });
    } finally {
      await restricted.close();
    }
  });
});

describe('Helm release changes, with the helm binary', () => {
  const cluster = testCluster();
  let changes: TestAgent;
  let ns: { name: string; remove: () => Promise<void> };
  beforeAll(async () => {
    [changes, ns] = await Promise.all([startTestAgent(), cluster.namespace('helm')]);
  });
  afterAll(async () => {
    await Promise.all([changes?.close(), ns?.remove()]);
  });

  it('uninstalls a release: 200, then its Secrets and objects are gone', async () => {
    const helmHome = await mkdtemp(join(tmpdir(), 'binnacle-helm-'));
    await promisify(execFile)(
      await helmBinary(),
      ['install', 'ledger', join(repoRoot, 'test/cluster/charts/billing'), '--namespace', ns.name],
      {
        env: {
          ...process.env,
          KUBECONFIG: cluster.kubeconfigPath(),
          HELM_CACHE_HOME: join(helmHome, 'cache'),
          HELM_CONFIG_HOME: join(helmHome, 'config'),
          HELM_DATA_HOME: join(helmHome, 'data'),
        },
      },
    );
    const release = `/api/pkgmgr/releases/${ns.name}/ledger`;
    await waitUntil('the release in the cache', async () => (await changes.request(release)).status === 200, {
      timeoutMs: 30_000,
    });
    const res = await changes.request(release, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: `uninstalled release ${ns.name}/ledger`,
      kind: 'HelmRelease',
      namespace: ns.name,
      name: 'ledger',
    });
    const apps = cluster.kubeConfig().makeApiClient(AppsV1Api);
    expect((await apps.listNamespacedDeployment({ namespace: ns.name })).items).toEqual([]);
    await waitUntil(
      'the release gone from the cache',
      async () => (await changes.request(release)).status === 404,
      {
        timeoutMs: 30_000,
      },
    );
    const again = await changes.request(release, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('answers 503 helm_unavailable, naming the flag, when there is no helm binary', async () => {
    const without = await startTestAgent({ config: { helmBinary: '/nonexistent/helm' } });
    try {
      const res = await without.request(base, { method: 'DELETE' });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        code: 'helm_unavailable',
        error: expect.stringContaining('--helm-binary'),
      });
      expect((await without.json<{ revision: number }>(base)).revision).toBe(2);
    } finally {
      await without.close();
    }
  });
});
