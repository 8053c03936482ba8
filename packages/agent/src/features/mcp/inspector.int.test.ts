import { runInspector, seeded, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentToolOrder } from '../../modules.ts';
import { agentsAndNamespace, type TestAgent } from '../../testing/index.ts';
import { plantSecrets } from '../../testing/planted-secrets.ts';
import { podWithStatus } from '../../testing/pods.ts';

// The agent's /mcp driven by another client than our own: the MCP Inspector's CLI, one process per call.
const fixture = agentsAndNamespace('mcp-inspector');
const admin = () => testCluster().kubeConfig('admin');

type Args = Record<string, string | number | boolean>;

async function callTool(agent: TestAgent, tool: string, args: Args = {}) {
  const pairs = Object.entries(args).map(([key, value]) => `${key}=${value}`);
  const run = await runInspector([
    `${agent.url}/mcp`,
    '--transport',
    'http',
    '--method',
    'tools/call',
    '--tool-name',
    tool,
    ...(pairs.length > 0 ? ['--tool-arg', ...pairs] : []),
  ]);
  const result = run.result as { content?: { text: string }[]; isError?: boolean } | undefined;
  expect(result, `${tool}: exit ${run.code}, ${run.stderr}`).toBeDefined();
  return {
    code: run.code,
    isError: result?.isError === true,
    text: result?.content?.map((c) => c.text).join('\n') ?? '',
  };
}

/** A tool's JSON answer, failing the test on an error answer. */
async function answer<T>(tool: string, args: Args = {}): Promise<T> {
  const called = await callTool(fixture.agent, tool, args);
  expect(called.isError, `${tool}: ${called.text}`).toBe(false);
  expect(called.code).toBe(0);
  return JSON.parse(called.text) as T;
}

let pod: string;
beforeAll(async () => {
  const ns = fixture.ns.name;
  await plantSecrets(fixture.agent, ns);
  // An issue to find: a pod the kubelet evicted.
  await podWithStatus(ns, 'evicted', {
    phase: 'Failed',
    reason: 'Evicted',
    message: 'The node was low on memory.',
  });
  const pods = await fixture.agent.json<{ items: string[] }>(
    `/api/ai/resources/pods?namespace=${ns}&verbosity=compact`,
  );
  pod = /^Pod [^/]+\/(web-[^:]+):/.exec(pods.items.find((line) => line.includes('/web-')) ?? '')?.[1] ?? '';
  // metrics-server scrapes every 10 s: a control plane that just started has no pod metrics for a while.
  await waitUntil(
    'pod metrics in demo-shop',
    async () => {
      const top = await fixture.agent.json<{ available: boolean; total: number }>(
        '/api/metrics/top/pods?namespace=demo-shop',
      );
      return top.available && top.total >= 5;
    },
    { timeoutMs: 60_000, intervalMs: 1000 },
  );
}, 120_000);

describe('the agent MCP endpoint through the MCP Inspector CLI', () => {
  it('lists every tool with its annotations', async () => {
    const run = await runInspector([
      `${fixture.agent.url}/mcp`,
      '--transport',
      'http',
      '--method',
      'tools/list',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { tools } = run.result as { tools: { name: string; annotations: { readOnlyHint: boolean } }[] };
    expect(tools.map((t) => t.name)).toEqual(agentToolOrder);
    expect(tools.find((t) => t.name === 'diagnose')?.annotations.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'manage_workload')?.annotations.readOnlyHint).toBe(false);
  });

  it('answers the cluster-wide read tools', async () => {
    const ns = fixture.ns.name;
    const dashboard = await answer<{ cluster: { connected: boolean } }>('get_dashboard', { namespace: ns });
    expect(dashboard.cluster.connected).toBe(true);
    expect((await answer<{ name: string }[]>('list_namespaces')).map((n) => n.name)).toContain(ns);
    const events = await answer<{ events: { reason: string }[] }>('get_events', { namespace: ns });
    expect(events.events.map((e) => e.reason)).toContain('ScalingReplicaSet');
    const changes = await answer<{ object: string }[]>('get_changes', { namespace: ns, since: '10m' });
    expect(changes.map((c) => c.object)).toContain(`Deployment ${ns}/web`);
    const audit = await answer<{ findings: { name: string; checkId: string }[] }>('get_cluster_audit', {
      namespace: ns,
    });
    expect(audit.findings).toContainEqual(
      expect.objectContaining({ name: 'web', checkId: 'livenessProbeMissing' }),
    );
    const topology = await answer<{ nodes: string[] }>('get_topology', { namespace: ns });
    expect(topology.nodes).toContainEqual(expect.stringMatching(`^deployment/${ns}/web `));
    const top = await answer<{ available: boolean; workloads: { name: string }[] }>('top_resources', {
      kind: 'workloads',
      namespace: 'demo-shop',
    });
    expect(top.available).toBe(true);
    expect(top.workloads[0]?.name).toBe('checkout');
    const issues = await answer<{ issues: { severity: string; name: string; reason: string }[] }>('issues', {
      namespace: ns,
      severity: 'critical',
    });
    expect(issues.issues).toContainEqual(expect.objectContaining({ name: 'evicted', reason: 'Evicted' }));
    const found = await answer<{ hits: string[] }>('search', {
      query: 'web',
      namespace: ns,
      kind: 'deployments',
    });
    expect(found.hits).toEqual([expect.stringMatching(new RegExp(`^Deployment ${ns}/web: 1/1 ready`))]);
    const everyone = await answer<{ grants: { binding: string }[] }>('get_subject_permissions', {
      kind: 'Group',
      name: 'system:authenticated',
    });
    expect(everyone.grants.map((g) => g.binding)).toContain('ClusterRoleBinding system:discovery');
  });

  it('answers the read tools about one object, workload or release', async () => {
    const ns = fixture.ns.name;
    const list = await answer<{ items: string[] }>('list_resources', { kind: 'deploy', namespace: ns });
    expect(list.items).toEqual([expect.stringMatching(`^Deployment ${ns}/web: 1/1 ready`)]);
    const web = await answer<{ resource: { spec: { replicas: number } } }>('get_resource', {
      kind: 'deployment',
      name: 'web',
      namespace: ns,
    });
    expect(web.resource.spec.replicas).toBe(1);
    const podLogs = await callTool(fixture.agent, 'get_pod_logs', {
      namespace: ns,
      name: pod,
      grep: 'login',
    });
    expect(podLogs.text).toContain('password=[REDACTED]');
    const workloadLogs = await callTool(fixture.agent, 'get_workload_logs', {
      namespace: ns,
      name: 'web',
      grep: 'login',
    });
    expect(workloadLogs.text).toContain(`[${pod}/app] `);
    expect(workloadLogs.text).toContain('password=[REDACTED]');
    const near = await answer<{ center: string; nodes: string[] }>('get_neighborhood', {
      kind: 'deployment',
      name: 'web',
      namespace: ns,
    });
    expect(near.center).toBe(`deployment/${ns}/web (healthy)`);
    expect(near.nodes).toContain(`pod/${ns}/${pod} (healthy), 1 hop`);
    const diagnosis = await answer<{ pods: { total: number; failing: number }; logs: { pod: string } }>(
      'diagnose',
      {
        kind: 'deployment',
        namespace: ns,
        name: 'web',
      },
    );
    expect(diagnosis).toMatchObject({ pods: { total: 1, failing: 0 }, logs: { pod } });
    const { namespace, name } = seeded.helmRelease;
    expect(
      (await answer<{ releases: { name: string }[] }>('list_helm_releases', { namespace })).releases,
    ).toEqual([expect.objectContaining({ name })]);
    const release = await answer<{ history: { revision: number }[] }>('get_helm_release', {
      namespace,
      name,
      include: 'history',
    });
    expect(release.history.map((h) => h.revision)).toEqual([2, 1]);
    const packages = await answer<{ packages: { chart: string; namespace: string }[] }>('list_packages', {
      source: 'helm',
      chart: 'billing',
    });
    expect(packages.packages).toContainEqual(expect.objectContaining({ chart: 'billing', namespace }));
  });

  it('refuses a write to the restricted identity and changes the cluster for an allowed one', async () => {
    const ns = fixture.ns.name;
    const scale = { action: 'scale', kind: 'deployment', namespace: ns, name: 'web', replicas: 2 };
    const refused = await callTool(fixture.restricted, 'manage_workload', scale);
    expect(refused).toMatchObject({ code: 5, isError: true, text: expect.stringMatching(/^forbidden: /) });
    const apps = admin().makeApiClient(AppsV1Api);
    expect((await apps.readNamespacedDeployment({ namespace: ns, name: 'web' })).spec?.replicas).toBe(1);
    const scaled = await answer<{ kind: string; replicas: number; previous: number }>(
      'manage_workload',
      scale,
    );
    expect(scaled).toMatchObject({ kind: 'Deployment', replicas: 2, previous: 1 });
    expect((await apps.readNamespacedDeployment({ namespace: ns, name: 'web' })).spec?.replicas).toBe(2);
  });

  it('names a bad argument (the SDK refuses it before the tool runs)', async () => {
    const bad = await callTool(fixture.agent, 'search', { query: 'web', limit: 501 });
    expect(bad).toMatchObject({
      code: 5,
      isError: true,
      text: expect.stringMatching(/-32602: [\s\S]*limit/),
    });
  });
});
