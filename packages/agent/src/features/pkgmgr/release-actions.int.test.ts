import { readdirSync, readFileSync } from 'node:fs';
import { chartRepositoryNames, helmBinary, testCluster, waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

interface Frame {
  type: 'progress' | 'complete' | 'error';
  phase?: string;
  message?: string;
  release?: { revision: number; status: string; chartVersion: string };
  code?: string;
}

const cluster = testCluster();
const { http: classic, oci } = chartRepositoryNames;
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let helm: string;

beforeAll(async () => {
  [agent, ns, helm] = await Promise.all([startTestAgent(), cluster.namespace('helm-actions'), helmBinary()]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

const json = (method: string, path: string, body?: unknown, signal?: AbortSignal) =>
  agent.request(path, {
    method,
    signal,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

/** Reads a helm SSE stream to its end: every `data:` frame, in order. */
async function frames(response: Response): Promise<Frame[]> {
  expect(
    response.status,
    await response
      .clone()
      .text()
      .catch(() => ''),
  ).toBe(200);
  expect(response.headers.get('x-accel-buffering')).toBe('no');
  const text = await response.text();
  expect(text).not.toMatch(/^event:/m);
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as Frame);
}

/** Processes of the helm binary that name this release (the process table, not our bookkeeping). */
function helmProcesses(release: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return argv[0] === helm && argv.includes(release);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const releasePath = (name: string) => `/api/pkgmgr/releases/${ns.name}/${name}`;
const status = async (name: string) =>
  agent.json<{ status: string; revision: number; chartVersion: string }>(releasePath(name));

describe('chart sources: a classic repository and an OCI registry', () => {
  it('lists both sources, their charts and versions, newest first', async () => {
    const { repositories } = await agent.json<{
      repositories: { name: string; type: string; charts: number }[];
    }>('/api/pkgmgr/repositories');
    expect(repositories).toEqual([
      expect.objectContaining({ name: classic, type: 'http', charts: 1 }),
      expect.objectContaining({ name: oci, type: 'oci', charts: 1 }),
    ]);
    const { charts } = await agent.json<{ charts: { name: string; repository: string; version: string }[] }>(
      '/api/pkgmgr/charts?query=billing',
    );
    expect(charts.map((c) => [c.repository, c.name, c.version])).toEqual([
      [classic, 'billing', '1.3.0'],
      [oci, 'billing', '1.3.0'],
    ]);
    expect(
      (await agent.json<{ charts: unknown[] }>('/api/pkgmgr/charts?query=nothing-like-it')).charts,
    ).toEqual([]);
    for (const repo of [classic, oci]) {
      const { versions } = await agent.json<{ versions: { version: string }[] }>(
        `/api/pkgmgr/charts/${repo}/billing`,
      );
      expect(versions.map((v) => v.version)).toEqual(['1.3.0', '1.2.0']);
    }
  });

  it.each([classic, oci])(
    'reads one version of %s from its package: values as written, README, schema',
    async (repo) => {
      const chart = await agent.json<{
        appVersion: string;
        values: string;
        readme: string;
        schema: { properties: object };
      }>(`/api/pkgmgr/charts/${repo}/billing/1.3.0`);
      expect(chart.appVersion).toBe('3.2.0');
      expect(chart.values).toContain("# Empty: the chart's appVersion.");
      expect(chart.readme).toMatch(/^# billing/);
      expect(chart.schema.properties).toHaveProperty('config');
    },
  );

  it('answers 404 for an unknown source, chart or version, and fetches an index again on update', async () => {
    for (const path of [
      '/api/pkgmgr/charts/nope/billing',
      `/api/pkgmgr/charts/${classic}/nope`,
      `/api/pkgmgr/charts/${oci}/billing/9.9.9`,
    ]) {
      const res = await agent.request(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()) as object).toMatchObject({ code: 'not_found' });
    }
    const before = (await agent.json<{ repositories: { updated: string }[] }>('/api/pkgmgr/repositories'))
      .repositories[0];
    const updated = await json('POST', `/api/pkgmgr/repositories/${classic}/update`);
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { updated: string }).updated > (before?.updated ?? '')).toBe(true);
    expect((await json('POST', '/api/pkgmgr/repositories/nope/update')).status).toBe(404);
  });
});

describe('a release through its life: install, upgrade, diff, preview, values, rollback, uninstall', () => {
  it('installs from the OCI registry as a stream: progress, then complete, then the stream ends', async () => {
    const list = await frames(
      await json('POST', '/api/pkgmgr/releases/install-stream', {
        releaseName: 'ledger',
        namespace: ns.name,
        chartName: 'billing',
        version: '1.2.0',
        repository: oci,
        values: 'replicaCount: 1\n',
      }),
    );
    expect(list[0]).toMatchObject({ type: 'progress', phase: 'starting' });
    expect(list.some((f) => f.type === 'progress' && f.phase === 'waiting')).toBe(true);
    expect(list.at(-1)).toMatchObject({
      type: 'complete',
      release: { revision: 1, status: 'deployed', chartVersion: '1.2.0' },
    });
    expect(list.filter((f) => f.type !== 'progress')).toHaveLength(1);
    // --wait held the answer until the objects were ready; the cache shows them healthy.
    await waitUntil(
      'the release and its objects healthy in the cache',
      async () => {
        const res = await agent.request(releasePath('ledger'));
        if (res.status !== 200) return false;
        const { resources } = (await res.json()) as { resources: { kind: string; status: string }[] };
        return resources.length === 3 && resources.every((r) => r.status === 'healthy');
      },
      { timeoutMs: 30_000 },
    );
  });

  it('upgrades to the version upgrade-info found, from the classic repository', async () => {
    expect(await agent.json(`${releasePath('ledger')}/upgrade-info`)).toEqual({
      currentVersion: '1.2.0',
      latestVersion: '1.3.0',
      updateAvailable: true,
      repositoryName: classic,
    });
    const check = await agent.json<{ releases: Record<string, { latestVersion: string }> }>(
      `/api/pkgmgr/upgrade-check?namespace=${ns.name}`,
    );
    expect(Object.keys(check.releases)).toEqual([`${ns.name}/ledger`]);
    const res = await json('POST', `${releasePath('ledger')}/upgrade`, {
      version: '1.3.0',
      repository: classic,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      kind: 'HelmRelease',
      namespace: ns.name,
      name: 'ledger',
      release: { revision: 2, status: 'deployed', chartVersion: '1.3.0', appVersion: '3.2.0' },
    });
    expect((await agent.json(`${releasePath('ledger')}/upgrade-info`)).updateAvailable).toBe(false);
    // Values were kept (no values given: --reuse-values).
    expect((await agent.json(`${releasePath('ledger')}/values`)).userSupplied).toEqual({ replicaCount: 1 });
    const { diff } = await agent.json<{ diff: string }>(
      `${releasePath('ledger')}/diff?revision1=1&revision2=2`,
    );
    expect(diff).toContain('-    helm.sh/chart: billing-1.2.0');
    expect(diff).toContain('+    helm.sh/chart: billing-1.3.0');
    expect(diff).toContain('+          image: "ghcr.io/binnacle-demo/billing:3.2.0"');
  });

  it('previews a values change without applying it: the manifest diff names the changed field', async () => {
    const res = await json('POST', `${releasePath('ledger')}/values/preview`, {
      values: 'replicaCount: 1\nconfig:\n  currency: USD\n',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = (await res.json()) as { currentValues: object; newValues: object; manifestDiff: string };
    expect(preview.currentValues).toEqual({ replicaCount: 1 });
    expect(preview.newValues).toEqual({ replicaCount: 1, config: { currency: 'USD' } });
    expect(preview.manifestDiff).toContain('-  CURRENCY: "EUR"');
    expect(preview.manifestDiff).toContain('+  CURRENCY: "USD"');
    expect((await status('ledger')).revision).toBe(2);
  });

  it('replaces the values (an upgrade to the same version), then rolls back to revision 1 as a stream', async () => {
    const put = await json('PUT', `${releasePath('ledger')}/values`, {
      values: { config: { currency: 'USD' } },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await put.json()).toMatchObject({ release: { revision: 3, chartVersion: '1.3.0' } });
    expect((await agent.json(`${releasePath('ledger')}/values?revision=3`)).userSupplied).toEqual({
      config: { currency: 'USD' },
    });
    const list = await frames(
      await json('POST', `${releasePath('ledger')}/rollback-stream`, { revision: 1 }),
    );
    expect(list.at(-1)).toMatchObject({
      type: 'complete',
      release: { revision: 4, status: 'deployed', chartVersion: '1.2.0' },
    });
    await waitUntil('revision 4 in the cache', async () => (await status('ledger')).revision === 4, {
      timeoutMs: 15_000,
    });
    const history = (
      await agent.json<{ history: { revision: number; description: string }[] }>(releasePath('ledger'))
    ).history;
    expect(history[0]).toMatchObject({ revision: 4, description: 'Rollback to 1' });
  });

  it('lists the helm runs in /api/sessions, answers 409 while one is pending, and a cut stream stops helm', async () => {
    const cut = new AbortController();
    // Pods that fit no node keep helm waiting (--wait) until the stream is cut.
    const stream = json(
      'POST',
      `${releasePath('ledger')}/upgrade-stream`,
      { version: '1.3.0', repository: oci, values: { nodeSelector: { zone: 'nowhere' } } },
      cut.signal,
    );
    const response = await stream;
    expect(response.status).toBe(200);
    await waitUntil(
      'the upgrade pending in the cache',
      async () => (await status('ledger')).status === 'pending-upgrade',
      {
        timeoutMs: 30_000,
      },
    );
    const sessions = await agent.json<{ items: { kind: string; target: string }[] }>('/api/sessions');
    expect(sessions.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'helm',
          target: expect.stringContaining(`upgrade ${ns.name}/ledger`),
        }),
      ]),
    );
    expect(helmProcesses('ledger').length).toBeGreaterThan(0);
    for (const [path, body] of [
      [`${releasePath('ledger')}/upgrade`, {}],
      [`${releasePath('ledger')}/rollback`, {}],
    ] as const) {
      const busy = await json('POST', path, body);
      expect(busy.status, path).toBe(409);
      expect(await busy.json()).toMatchObject({
        code: 'conflict',
        error: expect.stringContaining('pending-upgrade'),
      });
    }
    cut.abort();
    await waitUntil(
      'no helm process left for the release',
      () => Promise.resolve(helmProcesses('ledger').length === 0),
      {
        timeoutMs: 20_000,
      },
    );
    await waitUntil(
      'the helm session gone',
      async () => {
        const { items } = await agent.json<{ items: { kind: string }[] }>('/api/sessions');
        return !items.some((item) => item.kind === 'helm');
      },
      { timeoutMs: 5_000 },
    );
    // helm marked the cancelled upgrade failed; a rollback brings the release back.
    await waitUntil('the upgrade marked failed', async () => (await status('ledger')).status === 'failed', {
      timeoutMs: 15_000,
    });
    const rollback = await json('POST', `${releasePath('ledger')}/rollback`, { revision: 4 });
    expect(rollback.status, await rollback.clone().text()).toBe(200);
    expect(await rollback.json()).toMatchObject({
      release: { revision: 6, status: 'deployed', chartVersion: '1.2.0' },
    });
  });

  it('uninstalls: 200, then 404', async () => {
    const res = await agent.request(releasePath('ledger'), { method: 'DELETE' });
    expect(res.status, await res.clone().text()).toBe(200);
    await waitUntil(
      'the release gone',
      async () => (await agent.request(releasePath('ledger'))).status === 404,
      {
        timeoutMs: 15_000,
      },
    );
  });
});

describe('bad input is refused before helm runs, helm failures carry helm message', () => {
  const install = (overrides: Record<string, unknown>) =>
    json('POST', '/api/pkgmgr/releases', {
      releaseName: 'refused',
      namespace: ns.name,
      chartName: 'billing',
      version: '1.2.0',
      repository: classic,
      ...overrides,
    });

  it.each(['releaseName', 'namespace', 'chartName', 'version'])('400 naming a missing %s', async (field) => {
    const res = await install({ [field]: undefined });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining(field),
    });
  });

  it('404 for a chart or version the source does not have', async () => {
    for (const overrides of [{ chartName: 'nope' }, { version: '9.9.9' }, { repository: 'nope' }]) {
      const res = await install(overrides);
      expect(res.status, JSON.stringify(overrides)).toBe(404);
    }
  });

  it('400 invalid_yaml for values that are not YAML or not a map', async () => {
    for (const values of ['replicaCount: [1', '- a\n- b\n']) {
      const res = await install({ values });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_yaml' });
    }
  });

  it("422 values_invalid with helm's message for values the chart's schema refuses; nothing is installed", async () => {
    const res = await install({ values: { config: { currency: 'XXX' } } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'values_invalid',
      error: expect.stringMatching(/at '\/config\/currency': value must be one of/),
    });
    expect((await agent.request(releasePath('refused'))).status).toBe(404);
  });

  it('installs without a stream too: the answer comes once helm is done, with the release', async () => {
    const res = await install({ releaseName: 'plain', values: { replicaCount: 1 } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      message: expect.stringContaining(`install ${classic}/billing 1.2.0 as ${ns.name}/plain`),
      kind: 'HelmRelease',
      namespace: ns.name,
      name: 'plain',
      release: { revision: 1, status: 'deployed', chartVersion: '1.2.0' },
    });
    const again = await install({ releaseName: 'plain' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'already_exists' });
    expect((await agent.request(releasePath('plain'), { method: 'DELETE' })).status).toBe(200);
  });

  it('409 for an install over an existing release', async () => {
    const res = await json('POST', '/api/pkgmgr/releases', {
      releaseName: 'billing',
      namespace: 'demo-billing',
      chartName: 'billing',
      version: '1.2.0',
      repository: classic,
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'already_exists' });
  });
});
