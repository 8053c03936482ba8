import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { helmBinary, repoRoot, seeded, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';
import { call, json, mcpClients, readUntil } from '../../testing/mcp-client.ts';
import { leaks, planted, plantSecrets } from '../../testing/planted-secrets.ts';
import { crashLoopingPod } from '../../testing/pods.ts';

// What the tools about usage, failures, objects, permissions and releases answer, read through the SDK's client
// from the local control plane (the protocol itself, and the first tools, are in mcp.int.test.ts).
const fixture = agentsAndNamespace('mcp-tools');
const connect = mcpClients();
const core = () => testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);

/** Installs or upgrades the test chart as a release in a namespace with the real helm (no pods: 0 replicas). */
async function helm(namespace: string, verb: 'install' | 'upgrade', release: string, values: string[]) {
  const home = await mkdtemp(join(tmpdir(), 'binnacle-helm-'));
  const chart = join(repoRoot, 'test/cluster/charts/billing');
  const sets = ['--set', 'replicaCount=0', ...values.flatMap((value) => ['--set-string', value])];
  try {
    await promisify(execFile)(
      await helmBinary(),
      [
        verb,
        release,
        chart,
        '--namespace',
        namespace,
        ...(verb === 'upgrade' ? ['--reuse-values'] : []),
        ...sets,
      ],
      {
        timeout: 60_000,
        env: {
          ...process.env,
          KUBECONFIG: testCluster().kubeconfigPath(),
          HELM_CACHE_HOME: join(home, 'cache'),
          HELM_CONFIG_HOME: join(home, 'config'),
          HELM_DATA_HOME: join(home, 'data'),
        },
      },
    );
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

let client: Client;
beforeAll(async () => {
  await plantSecrets(fixture.agent, fixture.ns.name);
  client = await connect(fixture.agent);
});

describe('the MCP tools about usage, failures, objects, permissions and releases', () => {
  it('names the busiest pods, workloads and nodes from metrics-server, beside their requests', async () => {
    type Top = { available: boolean; total: number };
    // metrics-server scrapes every 10 s: a control plane that just started has no pod metrics for a while.
    await waitUntil(
      'pod metrics in demo-shop',
      async () => {
        const top = await json<Top>(client, 'top_resources', { namespace: 'demo-shop' });
        return top.available && top.total >= 5;
      },
      { timeoutMs: 60_000, intervalMs: 1000 },
    );
    const pods = await json<
      Top & { pods: { name: string; cpuMillicores: number; cpuRequestMillicores: number }[] }
    >(client, 'top_resources', { kind: 'pods', namespace: 'demo-shop', limit: 2 });
    // checkout's pods use 260m each (kwok's usage annotation), storefront's 45m.
    expect(pods.total).toBe(5);
    expect(pods.pods.map((p) => p.name)).toEqual([
      expect.stringMatching(/^checkout-/),
      expect.stringMatching(/^checkout-/),
    ]);
    expect(pods.pods[0]).toMatchObject({ cpuRequestMillicores: 200 });
    const workloads = await json<
      Top & {
        workloads: {
          kind: string;
          name: string;
          pods: number;
          cpuMillicores: number;
          cpuRequestMillicores: number;
        }[];
      }
    >(client, 'top_resources', { kind: 'workloads', namespace: 'demo-shop', sort: 'memory' });
    expect(workloads.workloads.map((w) => `${w.kind} ${w.name} ${w.pods}`)).toEqual([
      'Deployment checkout 2',
      'Deployment storefront 3',
    ]);
    expect(workloads.workloads[0]?.cpuRequestMillicores).toBe(400);
    expect(workloads.workloads[0]?.cpuMillicores).toBeGreaterThan(workloads.workloads[1]?.cpuMillicores ?? 0);
    const nodes = await json<Top & { nodes: { name: string; cpuAllocatableMillicores: number }[] }>(
      client,
      'top_resources',
      { kind: 'nodes' },
    );
    expect(nodes.nodes.length).toBeGreaterThan(0);
    expect(nodes.nodes[0]?.cpuAllocatableMillicores).toBeGreaterThan(0);
    expect(await call(client, 'top_resources', { kind: 'nodes', namespace: 'demo-shop' })).toEqual({
      isError: true,
      text: 'invalid_request: namespace does not apply to nodes',
    });
    expect((await call(client, 'top_resources', { limit: 101 })).text).toMatch(/-32602: [\s\S]*limit/);
  });

  it("diagnoses a crash-looping pod: its waiting reason, last termination, events and the crashed run's log", async () => {
    const ns = fixture.ns.name;
    await crashLoopingPod(ns, 'crasher');
    const diagnosis = await readUntil(
      'the crash loop and its BackOff event in the diagnosis',
      () =>
        json<{
          object: { status: { phase: string } };
          pods: {
            failing: number;
            states: {
              pod: string;
              containers: { state: string; lastTermination?: string; restarts: number }[];
            }[];
          };
          events: { reason: string; object: string }[];
          logs: { pod: string; container: string; previous: boolean; lines: string[] };
        }>(client, 'diagnose', { kind: 'pod', namespace: ns, name: 'crasher' }),
      (d) => d.pods.failing === 1 && d.events.some((e) => e.reason === 'BackOff'),
    );
    expect(diagnosis.object.status.phase).toBe('Running');
    const [state] = diagnosis.pods.states;
    expect(state?.pod).toMatch(new RegExp(`^Pod ${ns}/crasher: Running, CrashLoopBackOff`));
    expect(state?.containers).toEqual([
      expect.objectContaining({
        restarts: 4,
        state: expect.stringMatching(/^waiting: CrashLoopBackOff \(back-off 40s/),
        lastTermination: expect.stringMatching(/^terminated: Error, exit 1/),
      }),
    ]);
    expect(diagnosis.events).toContainEqual(
      expect.objectContaining({ reason: 'BackOff', object: `Pod ${ns}/crasher` }),
    );
    expect(diagnosis.logs).toMatchObject({ pod: 'crasher', container: 'main', previous: true });
    expect(diagnosis.logs.lines.join('\n')).toContain('exiting after 3 failed attempts');
    const web = await json<{
      pods: { total: number; failing: number };
      logs: { previous: boolean; lines: string[] };
    }>(client, 'diagnose', { kind: 'deployment', namespace: ns, name: 'web', tail_lines: 5 });
    expect(web.pods).toMatchObject({ total: 1, failing: 0 });
    expect(web.logs.previous).toBe(false);
    expect(web.logs.lines).toHaveLength(5);
    expect((await call(client, 'diagnose', { kind: 'service', namespace: ns, name: 'web' })).text).toMatch(
      /-32602: [\s\S]*kind/,
    );
  });

  it("finds seeded objects by label and annotation, and lists the cluster's issues", async () => {
    const ns = fixture.ns.name;
    await core().createNamespacedConfigMap({
      namespace: ns,
      body: {
        metadata: {
          name: 'otter-notes',
          labels: { team: 'sea-otters' },
          annotations: { owner: 'Ada Lovelace' },
        },
        data: { note: 'hello' },
      },
    });
    const found = await readUntil(
      'the ConfigMap found by its label value',
      () => json<{ total: number; hits: string[] }>(client, 'search', { query: 'sea-otters' }),
      (r) => r.total > 0,
    );
    expect(found.hits).toEqual([expect.stringMatching(new RegExp(`^ConfigMap ${ns}/otter-notes: 1 keys`))]);
    const byOwner = await json<{ hits: string[] }>(client, 'search', {
      query: 'ada lovelace',
      kind: 'configmaps',
      namespace: ns,
    });
    expect(byOwner.hits).toEqual([expect.stringMatching(/^ConfigMap .*\/otter-notes:/)]);
    const byName = await json<{ hits: string[] }>(client, 'search', {
      query: 'web',
      namespace: ns,
      limit: 3,
    });
    // The object named exactly so comes before those whose names only start so.
    expect(byName.hits[0]).toMatch(new RegExp(`^(Deployment|Service) ${ns}/web:`));
    expect(await json(client, 'search', { query: planted.secretValue })).toEqual({ total: 0, hits: [] });
    expect((await call(client, 'search', { query: 'x'.repeat(257) })).text).toMatch(/-32602: [\s\S]*query/);
    const restricted = await call(await connect(fixture.restricted), 'search', {
      query: 'web',
      kind: 'deployments',
    });
    expect(restricted).toMatchObject({ isError: true, text: expect.stringMatching(/^forbidden: /) });
    expect(await call(client, 'search', { query: 'web', kind: 'nodes', namespace: ns })).toEqual({
      isError: true,
      text: 'invalid_request: nodes are cluster-scoped: leave namespace out',
    });

    const issues = await json<{
      total: number;
      issues: { severity: string; kind: string; name: string; reason: string; source: string }[];
    }>(client, 'issues', { namespace: ns });
    expect(issues.issues).toContainEqual(
      expect.objectContaining({
        severity: 'critical',
        kind: 'Pod',
        name: 'crasher',
        reason: 'CrashLoopBackOff',
        source: 'health',
      }),
    );
    const warnings = await json<{ issues: { severity: string }[] }>(client, 'issues', {
      severity: 'warning',
    });
    expect(warnings.issues.every((i) => i.severity === 'warning')).toBe(true);
    const deployments = await json<{ issues: { kind: string }[] }>(client, 'issues', {
      namespace: ns,
      kind: 'deployment',
    });
    expect(deployments.issues.every((i) => i.kind === 'Deployment')).toBe(true);
  });

  it("lists a subject's RoleBindings and their rules, and refuses an identity that may not list them", async () => {
    const ns = fixture.ns.name;
    const rbacApi = testCluster().kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
    const rbacGroup = 'rbac.authorization.k8s.io';
    await core().createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'robot' } } });
    await rbacApi.createNamespacedRole({
      namespace: ns,
      body: {
        metadata: { name: 'pod-reader' },
        rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }],
      },
    });
    await rbacApi.createNamespacedRoleBinding({
      namespace: ns,
      body: {
        metadata: { name: 'robot-reads-pods' },
        subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: ns }],
        roleRef: { kind: 'Role', name: 'pod-reader', apiGroup: rbacGroup },
      },
    });
    await rbacApi.createNamespacedRoleBinding({
      namespace: ns,
      body: {
        metadata: { name: 'all-accounts-view' },
        subjects: [{ kind: 'Group', name: `system:serviceaccounts:${ns}`, apiGroup: rbacGroup }],
        roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: rbacGroup },
      },
    });
    type Permissions = {
      subject: string;
      grants: {
        binding: string;
        via: string;
        role: string;
        scope: string;
        rules?: { verbs: string[]; resources?: string[] }[];
      }[];
      rules: { scope: string; verbs: string[]; resources?: string[] }[];
    };
    const robot = await readUntil(
      'both bindings in the cache',
      () =>
        json<Permissions>(client, 'get_subject_permissions', {
          kind: 'ServiceAccount',
          name: 'robot',
          namespace: ns,
        }),
      // Both by name: a cluster-wide binding to every service account (the API server's own
      // system:service-account-issuer-discovery) counts among the grants too.
      (p) =>
        ['robot-reads-pods', 'all-accounts-view'].every((name) =>
          p.grants.some((g) => g.binding === `RoleBinding ${ns}/${name}`),
        ),
    );
    expect(robot.subject).toBe(`ServiceAccount ${ns}/robot`);
    expect(robot.grants).toContainEqual({
      binding: `RoleBinding ${ns}/robot-reads-pods`,
      via: `ServiceAccount ${ns}/robot`,
      role: `Role ${ns}/pod-reader`,
      scope: `namespace ${ns}`,
      rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }],
    });
    const view = robot.grants.find((g) => g.binding === `RoleBinding ${ns}/all-accounts-view`);
    expect(view).toMatchObject({ via: `Group system:serviceaccounts:${ns}`, role: 'ClusterRole view' });
    expect(view?.rules?.length).toBeGreaterThan(1);
    expect(robot.rules).toContainEqual(
      expect.objectContaining({ scope: `namespace ${ns}`, resources: ['pods', 'pods/log'] }),
    );
    const group = await json<Permissions>(client, 'get_subject_permissions', {
      kind: 'Group',
      name: `system:serviceaccounts:${ns}`,
      namespace: ns,
    });
    expect(group.grants.map((g) => g.binding)).toEqual([`RoleBinding ${ns}/all-accounts-view`]);
    expect(await call(client, 'get_subject_permissions', { kind: 'ServiceAccount', name: 'robot' })).toEqual({
      isError: true,
      text: 'invalid_request: namespace is required for a ServiceAccount',
    });
    const refused = await call(await connect(fixture.restricted), 'get_subject_permissions', {
      kind: 'User',
      name: 'ada',
    });
    expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/^forbidden: /) });
  });

  it("shows an object's neighbourhood and a workload's merged logs", async () => {
    const ns = fixture.ns.name;
    const near = await json<{ center: string; nodes: string[]; edges: string[] }>(
      client,
      'get_neighborhood',
      {
        kind: 'deploy',
        name: 'web',
        namespace: ns,
      },
    );
    expect(near.center).toBe(`deployment/${ns}/web (healthy)`);
    expect(near.nodes).toContainEqual(
      expect.stringMatching(new RegExp(`^pod/${ns}/web-[a-z0-9-]+ \\(healthy\\), 1 hop$`)),
    );
    expect(near.edges).toContainEqual(
      expect.stringMatching(new RegExp(`^deployment/${ns}/web -manages-> pod/${ns}/web-`)),
    );
    const [podLine] = near.nodes;
    const pod = podLine?.split(' ')[0]?.split('/')[2] ?? '';
    const fromPod = await json<{ center: string; nodes: string[] }>(client, 'get_neighborhood', {
      kind: 'pod',
      name: pod,
      namespace: ns,
      hops: 2,
    });
    expect(fromPod.nodes).toContainEqual(`deployment/${ns}/web (healthy), 1 hop`);
    expect(
      await call(client, 'get_neighborhood', { kind: 'nodes', name: 'kwok-node-0', namespace: ns }),
    ).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^invalid_request: the topology does not draw Node/),
    });
    expect(
      (await call(client, 'get_neighborhood', { kind: 'pod', name: 'x', namespace: ns, hops: 3 })).text,
    ).toMatch(/-32602: [\s\S]*hops/);

    const logs = await call(client, 'get_workload_logs', {
      namespace: ns,
      name: 'web',
      grep: 'login',
      tail_lines: 2000,
    });
    expect(logs.isError, logs.text).toBe(false);
    const [header, ...lines] = logs.text.split('\n');
    expect(header).toMatch(new RegExp(`^# Deployment ${ns}/web: pods ${pod}; \\d+ lines matching /login/i$`));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.startsWith(`[${pod}/app] `))).toBe(true);
    expect(logs.text).toContain('path=/login?user=ada&password=[REDACTED]');
    // level keeps lines at that level or worse: the running log is pod-sim's info lines, the previous run's
    // ended with an error and a fatal line (the unit tests read every key and spelling).
    const errors = (previous: boolean) =>
      call(client, 'get_workload_logs', {
        namespace: ns,
        name: 'web',
        level: 'error',
        previous,
        tail_lines: 2000,
      });
    expect((await errors(false)).text).toBe(
      `# Deployment ${ns}/web: pods ${pod}; 0 lines at level error or worse`,
    );
    expect((await errors(true)).text.split('\n')).toEqual([
      `# Deployment ${ns}/web: pods ${pod}; 2 lines at level error or worse`,
      `[${pod}/app] level=error msg="connection refused: database not ready"`,
      `[${pod}/app] level=fatal msg="exiting after 3 failed attempts"`,
    ]);
    expect(
      (await call(client, 'get_workload_logs', { namespace: ns, name: 'web', kind: 'job' })).text,
    ).toMatch(/-32602: [\s\S]*kind/);
  });

  it('reads a Helm release with its values, history and a diff, and lists packages by source and chart', async () => {
    const { namespace, name } = seeded.helmRelease;
    const release = await json<{
      revision: number;
      chartVersion: string;
      resources: { kind: string; name: string }[];
      history?: { revision: number }[];
      values?: { userSupplied: { image: { tag: string } }; computed: { replicaCount: number } };
      diff?: { revision1: number; revision2: number; diff: string };
    }>(client, 'get_helm_release', { namespace, name, include: 'values,history,diff' });
    expect(release).toMatchObject({ revision: 2, chartVersion: '1.2.0' });
    expect(release.resources).toContainEqual(
      expect.objectContaining({ kind: 'Deployment', name: 'billing' }),
    );
    expect(release.history?.map((h) => h.revision)).toEqual([2, 1]);
    expect(release.values?.userSupplied.image.tag).toBe('3.1.1');
    expect(release.values?.computed.replicaCount).toBe(2);
    expect(release.diff).toMatchObject({ revision1: 1, revision2: 2 });
    // The manifests are compared redacted, so as YAML written again: the values, not the quoting, show.
    expect(release.diff?.diff).toContain('-  CURRENCY: EUR\n+  CURRENCY: USD');
    expect(release.diff?.diff).toContain('+          image: ghcr.io/binnacle-demo/billing:3.1.1');
    const plain = await json<Record<string, unknown>>(client, 'get_helm_release', { namespace, name });
    expect(plain).not.toHaveProperty('values');
    expect(plain).not.toHaveProperty('history');
    expect((await call(client, 'get_helm_release', { namespace, name, include: 'secrets' })).text).toMatch(
      /-32602: [\s\S]*include/,
    );
    expect((await call(client, 'get_helm_release', { namespace, name: 'nope' })).text).toMatch(
      /^not_found: /,
    );

    const packages = await json<{
      total: number;
      packages: { chart: string; namespace?: string; sources: string[] }[];
    }>(client, 'list_packages', { source: 'helm', chart: 'BILL' });
    expect(packages.packages).toContainEqual(
      expect.objectContaining({ chart: 'billing', namespace, sources: expect.arrayContaining(['helm']) }),
    );
    expect(packages.packages.every((p) => p.chart.includes('billing') && p.sources.includes('helm'))).toBe(
      true,
    );
    expect(packages.total).toBe(packages.packages.length);
  });

  it('lets no planted credential out of these tools', async () => {
    const ns = fixture.ns.name;
    const texts: string[] = [];
    // A Helm release whose values carry credentials, as charts' values often do.
    await helm(ns, 'install', 'vault', [
      `config.dbPassword=${planted.configPassword}`,
      `config.webhook=https://ci:${planted.urlPassword}@ci.example.com/hook`,
    ]);
    await helm(ns, 'upgrade', 'vault', ['config.currency=USD']);
    const release = await readUntil(
      'both revisions of the planted release in the cache',
      () =>
        call(client, 'get_helm_release', { namespace: ns, name: 'vault', include: 'values,history,diff' }),
      (r) => r.text.includes('"revision":2'),
    );
    expect(release.text).toContain(`"dbPassword":"[REDACTED]"`);
    texts.push(release.text);
    const newTools: [string, Record<string, unknown>][] = [
      ['top_resources', { namespace: ns }],
      ['top_resources', { kind: 'workloads', namespace: ns }],
      ['issues', { namespace: ns }],
      ['search', { query: 'web', namespace: ns }],
      ['search', { query: 'db' }],
      ['get_subject_permissions', { kind: 'Group', name: 'system:authenticated' }],
      ['get_neighborhood', { kind: 'deploy', name: 'web', namespace: ns, hops: 2 }],
      ['get_workload_logs', { namespace: ns, name: 'web', tail_lines: 2000 }],
      ['diagnose', { kind: 'deployment', namespace: ns, name: 'web', tail_lines: 2000 }],
      ['list_packages', { namespace: ns }],
    ];
    for (const [name, args] of newTools) {
      const answer = await call(client, name, args);
      expect(answer.isError, `${name}: ${answer.text}`).toBe(false);
      texts.push(answer.text);
    }
    expect(texts).toHaveLength(1 + newTools.length);
    expect(texts.flatMap(leaks)).toEqual([]);
  });
});
