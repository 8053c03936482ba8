import { createServer, type Server } from 'node:http';
import { clusterNodesLock, testCluster } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

let agent: TestAgent;
let restricted: TestAgent;
// The node count below holds while no other file adds Nodes.
let unlockNodes: (() => Promise<void>) | undefined;

beforeAll(async () => {
  unlockNodes = await testCluster().lock(clusterNodesLock);
  [agent, restricted] = await Promise.all([startTestAgent(), startTestAgent({ identity: 'restricted' })]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close()]);
  await unlockNodes?.();
});

/** A release feed on loopback: the real network boundary of /api/version-check. */
async function feed(
  answer: (res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/latest`,
    server,
  };
}

describe('GET /api/health', () => {
  it('is healthy with every tier synced and runtime figures', async () => {
    const health = await agent.json<{
      status: string;
      sync: { ready: boolean; tiers: { name: string; state: string; kinds: number; synced: number }[] };
      resourceCount: number;
      runtime: { node: string; rssMB: number };
    }>('/api/health');
    expect(health.status).toBe('healthy');
    expect(health.sync.ready).toBe(true);
    expect(health.sync.tiers.map((t) => [t.name, t.state])).toEqual([
      ['core', 'synced'],
      ['deferred', 'synced'],
      ['custom', 'synced'],
    ]);
    expect(health.sync.tiers[0]?.kinds).toBeGreaterThanOrEqual(14);
    expect(health.sync.tiers[2]?.kinds).toBeGreaterThanOrEqual(5);
    expect(health.resourceCount).toBeGreaterThan(100);
    expect(health.runtime.node).toMatch(/^v24\./);
    expect(health.runtime.rssMB).toBeGreaterThan(0);
  });

  it('says starting, and resources answer 503 not_ready, before the agent has connected', async () => {
    const idle = await startTestAgent({ start: false });
    try {
      expect((await idle.json<{ status: string }>('/api/health')).status).toBe('starting');
      const res = await idle.request('/api/resources/pods');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toEqual({
        error: 'connecting to the cluster; retry shortly',
        code: 'not_ready',
      });
    } finally {
      await idle.close();
    }
  });
});

describe('GET /api/version-check', () => {
  it('reports a newer release from the feed', async () => {
    const { url, server } = await feed((res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ tag_name: 'v9.1.0', html_url: 'https://example.test/r/9.1.0', body: 'notes' }),
      );
    });
    const checked = await startTestAgent({ config: { releaseFeedUrl: url } });
    try {
      expect(await checked.json('/api/version-check')).toMatchObject({
        currentVersion: '0.1.0',
        latestVersion: '9.1.0',
        updateAvailable: true,
        releaseUrl: 'https://example.test/r/9.1.0',
        releaseNotes: 'notes',
      });
    } finally {
      server.close();
      await checked.close();
    }
  });

  it('answers 200 with an error field when the feed is unreachable or broken', async () => {
    const unreachable = await agent.request('/api/version-check');
    expect(unreachable.status).toBe(200);
    const body = (await unreachable.json()) as { updateAvailable: boolean; error?: string };
    expect(body.updateAvailable).toBe(false);
    expect(body.error).toMatch(/^release feed unreachable \(/);

    const { url, server } = await feed((res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    const broken = await startTestAgent({ config: { releaseFeedUrl: url } });
    try {
      expect(await broken.json('/api/version-check')).toMatchObject({
        updateAvailable: false,
        error: 'release feed unreachable (HTTP 500)',
      });
    } finally {
      server.close();
      await broken.close();
    }
  });
});

describe('GET /api/diagnostics', () => {
  it('reports connection, kubeconfig and sync without credentials', async () => {
    const res = await agent.request('/api/diagnostics');
    const text = await res.text();
    const report = JSON.parse(text) as {
      connection: { state: string };
      kubeconfig: { authMethod: string };
      informers: { kinds: number };
    };
    expect(report.connection.state).toBe('connected');
    expect(report.kubeconfig.authMethod).toBe('client-certificate');
    expect(report.informers.kinds).toBeGreaterThan(30);
    expect(text).not.toMatch(/BEGIN|PRIVATE KEY|client-key|LS0tLS1/);
  });

  it('renders Markdown for pasting', async () => {
    const res = await agent.request('/api/diagnostics?format=markdown');
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    expect(text).toMatch(/^## Binnacle diagnostics/);
    expect(text).toContain('| core | synced |');
  });
});

describe('metadata', () => {
  it('GET /api/auth/me says authentication is off', async () => {
    expect(await agent.json('/api/auth/me')).toEqual({ authEnabled: false, authMode: 'none' });
  });

  it('GET /api/cluster-info detects kwok and counts the seed', async () => {
    expect(await agent.json('/api/cluster-info')).toMatchObject({
      platform: 'kwok',
      kubernetesVersion: 'v1.36.3',
      nodeCount: 3,
      cluster: 'binnacle-local',
    });
  });

  it('GET /api/capabilities follows RBAC: all for the admin, nothing for the restricted identity', async () => {
    expect(await agent.json('/api/capabilities')).toMatchObject({
      exec: true,
      logs: true,
      portForward: true,
      secrets: true,
      workloadWrites: { deployments: true, statefulSets: true, daemonSets: true },
      nodeWrites: true,
      localTerminal: true,
      deployment: { mode: 'local' },
    });
    expect(await restricted.json('/api/capabilities?namespace=demo-shop')).toMatchObject({
      exec: false,
      logs: false,
      portForward: false,
      secrets: false,
      workloadWrites: { deployments: false, statefulSets: false, daemonSets: false },
      nodeWrites: false,
      namespace: 'demo-shop',
    });
  });

  it('GET /api/capabilities names the identity the agent acts as and what its views show it', async () => {
    expect(await agent.json('/api/capabilities?namespace=demo-shop&kind=configmaps')).toMatchObject({
      identity: {
        user: 'binnacle-admin',
        groups: expect.arrayContaining(['system:masters']),
        impersonated: false,
      },
      agent: { user: 'binnacle-admin' },
      view: { hiddenKinds: [], unreadableKinds: [] },
      kind: { kind: 'ConfigMap', group: '', namespaced: true, list: 'all', update: true, delete: true },
    });
    // An agent whose own credentials may list nothing: its cache is empty, and it says so rather than show none.
    const refused = await restricted.json<{
      identity: { user: string; impersonated: boolean };
      view: { namespaces?: string[]; hiddenKinds: string[]; unreadableKinds: string[] };
      kind: { list: string; update: boolean; delete: boolean };
    }>('/api/capabilities?kind=nodes');
    expect(refused.identity).toMatchObject({ user: 'binnacle-restricted', impersonated: false });
    expect(refused.view.namespaces).toEqual([]);
    expect(refused.view.unreadableKinds).toEqual(expect.arrayContaining(['Pod', 'Node', 'Event']));
    expect(refused.view.hiddenKinds).toEqual(refused.view.unreadableKinds);
    expect(refused.kind).toMatchObject({ list: 'none', update: false, delete: false });
    const unknown = await restricted.request('/api/capabilities?kind=no-such-kind');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: 'unknown_kind' });
  });

  it('serves what the restricted identity may not list as 403, and says which kinds are forbidden', async () => {
    const res = await restricted.request('/api/resources/pods');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: 'forbidden',
      error: expect.stringContaining('cannot list resource "pods"'),
    });
    const health = await restricted.json<{ status: string }>('/api/health');
    expect(health.status).toBe('healthy');
  });

  it('reports the audit the agent may not run as forbidden, not as a cluster without findings', async () => {
    const forbidden = { code: 'forbidden', error: expect.stringContaining('cannot list resource "pods"') };
    const dashboard = await restricted.json<{ audit?: unknown; auditError?: unknown }>('/api/dashboard');
    expect(dashboard.audit).toBeUndefined();
    expect(dashboard.auditError).toEqual(forbidden);
    const topology = await restricted.json<{ warnings: string[] }>('/api/topology');
    expect(topology.warnings).toContainEqual(
      expect.stringMatching(/^the audit cannot run \(forbidden\): .*pods/),
    );
    // The admin agent's audit runs: neither says it cannot.
    expect(await agent.json('/api/dashboard')).not.toHaveProperty('auditError');
    const allowed = await agent.json<{ warnings: string[] }>('/api/topology?namespaces=demo-shop');
    expect(allowed.warnings.filter((w) => w.startsWith('the audit'))).toEqual([]);
  });
});
