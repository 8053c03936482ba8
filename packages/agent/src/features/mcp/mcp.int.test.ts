import { argoApplication, identities, seeded, testCluster, waitUntil } from '@binnacle/testkit';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsAndNamespace, startTestAgent } from '../../testing/index.ts';
import { call, json, mcpClients } from '../../testing/mcp-client.ts';
import { leaks, plantSecrets } from '../../testing/planted-secrets.ts';

// The agent's /mcp driven by the SDK's own client, against the local control plane; what the tools answer about
// pods, workloads, releases and permissions is in tool-answers.int.test.ts.
const fixture = agentsAndNamespace('mcp');
const connect = mcpClients();

let client: Client;
beforeAll(async () => {
  await plantSecrets(fixture.agent, fixture.ns.name);
  client = await connect(fixture.agent);
});

const readTools = [
  'get_dashboard',
  'list_namespaces',
  'list_resources',
  'get_resource',
  'compare_objects',
  'selection_impact',
  'get_events',
  'get_pod_logs',
  'get_changes',
  'what_changed',
  'get_cluster_at',
  'get_cluster_audit',
  'list_helm_releases',
  'get_topology',
  'top_resources',
  'issues',
  'search',
  'get_subject_permissions',
  'who_can',
  'upgrade_readiness',
  'drain_fit',
  'get_neighborhood',
  'network_policy_impact',
  'propose_network_policies',
  'get_workload_logs',
  'diagnose',
  'get_helm_release',
  'list_packages',
];

const writeTools = [
  'manage_workload',
  'manage_cronjob',
  'manage_node',
  'manage_gitops',
  'manage_ecosystem',
  'apply_resource',
  'patch_resource',
];

describe('the agent MCP endpoint', () => {
  it('lists the read tools as read-only and the write tools as destructive, all closed-world, with input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...readTools, ...writeTools].sort());
    for (const t of tools) {
      const writes = writeTools.includes(t.name);
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: !writes,
        destructiveHint: writes,
        openWorldHint: false,
      });
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.description?.length, t.name).toBeGreaterThan(20);
    }
  });

  it('answers each read tool from the local control plane', async () => {
    const ns = fixture.ns.name;
    const dashboard = await json<{ cluster: { connected: boolean }; counts: { pods: { total: number } } }>(
      client,
      'get_dashboard',
      { namespace: ns },
    );
    expect(dashboard.cluster.connected).toBe(true);
    expect(dashboard.counts.pods.total).toBe(1);
    const names = (await json<{ name: string }[]>(client, 'list_namespaces')).map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining([ns, ...seeded.namespaces]));
    const deployments = await json<{ items: string[] }>(client, 'list_resources', {
      kind: 'deploy',
      namespace: ns,
    });
    expect(deployments.items).toEqual([
      expect.stringMatching(new RegExp(`^Deployment ${ns}/web: 1/1 ready`)),
    ]);
    const web = await json<{ resource: { spec: { replicas: number } }; events: { object: string }[] }>(
      client,
      'get_resource',
      { kind: 'deployment', name: 'web', namespace: ns },
    );
    expect(web.resource.spec.replicas).toBe(1);
    expect(web.events.map((e) => e.object)).toContain(`Deployment ${ns}/web`);
    const events = await json<{ total: number; events: { reason: string }[] }>(client, 'get_events', {
      namespace: ns,
    });
    expect(events.events.map((e) => e.reason)).toContain('ScalingReplicaSet');
    const [line] = (
      await json<{ items: string[] }>(client, 'list_resources', { kind: 'pods', namespace: ns })
    ).items;
    const pod = /^Pod [^/]+\/([^:]+):/.exec(line ?? '')?.[1];
    const badSince = await call(client, 'get_pod_logs', { namespace: ns, name: pod, since: 'yesterday' });
    expect(badSince).toMatchObject({ isError: true, text: expect.stringMatching(/^invalid_request: since/) });
    const logs = await call(client, 'get_pod_logs', {
      namespace: ns,
      name: pod,
      grep: 'login',
      tail_lines: 2000,
    });
    expect(logs.isError, logs.text).toBe(false);
    expect(logs.text).toMatch(new RegExp(`^# ${ns}/${pod} container app`));
    expect(logs.text).toContain('path=/login?user=ada&password=[REDACTED]');
    const changes = await json<{ what: string; object: string }[]>(client, 'get_changes', {
      namespace: ns,
      since: '10m',
    });
    expect(changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ object: `Deployment ${ns}/web` })]),
    );
    const audit = await json<{
      findings: { kind: string; name: string; checkId: string }[];
      checks: Record<string, { remediation: string }>;
    }>(client, 'get_cluster_audit', { namespace: ns, category: 'Reliability' });
    expect(audit.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'Deployment', name: 'web', checkId: 'livenessProbeMissing' }),
      ]),
    );
    expect(audit.checks.livenessProbeMissing?.remediation).toBeTruthy();
    const releases = await json<{ releases: { namespace: string; name: string }[] }>(
      client,
      'list_helm_releases',
      {
        namespace: seeded.helmRelease.namespace,
      },
    );
    expect(releases.releases).toEqual([expect.objectContaining({ name: seeded.helmRelease.name })]);
    const topology = await json<{ nodes: string[]; edges: string[] }>(client, 'get_topology', {
      namespace: ns,
    });
    expect(topology.nodes).toEqual(
      expect.arrayContaining([expect.stringMatching(`^deployment/${ns}/web \\(`)]),
    );
    expect(topology.edges.some((e) => e.startsWith(`deployment/${ns}/web -manages->`))).toBe(true);
  });

  it('offers health, topology and recent warnings as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'cluster://events',
      'cluster://health',
      'cluster://topology',
    ]);
    const health = await client.readResource({ uri: 'cluster://health' });
    const dashboard = JSON.parse((health.contents[0] as { text: string }).text) as {
      cluster: { connected: boolean };
    };
    expect(dashboard.cluster.connected).toBe(true);
    const events = await client.readResource({ uri: 'cluster://events' });
    const warnings = JSON.parse((events.contents[0] as { text: string }).text) as {
      events: { type: string }[];
    };
    expect(warnings.events.length).toBeLessThanOrEqual(50);
    expect(warnings.events.every((e) => e.type === 'Warning')).toBe(true);
  });

  it('lets no planted credential out of any tool', async () => {
    const ns = fixture.ns.name;
    const texts: string[] = [];
    for (const kind of ['secrets', 'configmaps', 'deployments', 'replicasets', 'pods'])
      for (const verbosity of ['compact', 'summary', 'detail'])
        texts.push((await call(client, 'list_resources', { kind, namespace: ns, verbosity })).text);
    for (const [kind, name] of [
      ['secret', 'db'],
      ['configmap', 'settings'],
      ['deployment', 'web'],
    ])
      texts.push((await call(client, 'get_resource', { kind, name, namespace: ns })).text);
    const pods = await json<{ items: { metadata: { name: string } }[] }>(client, 'list_resources', {
      kind: 'pods',
      namespace: ns,
      verbosity: 'summary',
    });
    for (const pod of pods.items) {
      texts.push(
        (await call(client, 'get_resource', { kind: 'pod', name: pod.metadata.name, namespace: ns })).text,
      );
      texts.push(
        (await call(client, 'get_pod_logs', { namespace: ns, name: pod.metadata.name, tail_lines: 2000 }))
          .text,
      );
    }
    for (const name of ['get_dashboard', 'get_events', 'get_changes', 'get_cluster_audit', 'get_topology'])
      texts.push((await call(client, name, { namespace: ns })).text);
    expect(texts).toHaveLength(15 + 3 + 2 * pods.items.length + 5);
    expect(texts.flatMap(leaks)).toEqual([]);
  });

  it('refuses unknown tools and bad arguments naming them, and a caller without rights with the reason', async () => {
    const unknown = await call(client, 'delete_everything');
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/-32602: Tool delete_everything not found/);
    const missing = await call(client, 'get_resource', { name: 'web' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/-32602: [\s\S]*kind/);
    const restricted = await connect(fixture.restricted);
    const refused = await call(restricted, 'list_resources', { kind: 'pods', namespace: fixture.ns.name });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^forbidden: /);
    expect(refused.text).toContain(identities.restricted.user);
  });

  it('refuses a patch nested 5 000 levels deep before parsing it', async () => {
    const deep = await call(client, 'patch_resource', {
      kind: 'configmap',
      name: 'anything',
      namespace: fixture.ns.name,
      patch: `{"data":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    expect(deep).toEqual({ isError: true, text: 'invalid_request: patch nests deeper than 200 levels' });
  });

  it('changes the cluster as an allowed caller, refuses the restricted one, and offers no writer when read-only', async () => {
    const ns = fixture.ns.name;
    const scale = { action: 'scale', kind: 'deploy', namespace: ns, name: 'web', replicas: 2 };
    const refused = await call(await connect(fixture.restricted), 'manage_workload', scale);
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^forbidden: /);
    const scaled = await json<{ replicas: number; previous: number; kind: string }>(
      client,
      'manage_workload',
      scale,
    );
    expect(scaled).toMatchObject({ kind: 'Deployment', replicas: 2, previous: 1 });
    // The agent's cache hears of the change from its watch, a moment after the API server took it.
    await waitUntil(
      'the cache showing 2 replicas',
      async () =>
        (
          await json<{ resource: { spec: { replicas: number } } }>(client, 'get_resource', {
            kind: 'deployment',
            name: 'web',
            namespace: ns,
          })
        ).resource.spec.replicas === 2,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const actions = await json<{ what: string; reason?: string; actor?: { user: string } }[]>(
      client,
      'get_changes',
      {
        namespace: ns,
        kind: 'Deployment',
        name: 'web',
      },
    );
    expect(actions).toEqual(
      expect.arrayContaining([expect.objectContaining({ what: 'action', reason: 'Scale' })]),
    );
    const missing = await call(client, 'manage_workload', { ...scale, replicas: undefined });
    expect(missing).toEqual({ isError: true, text: 'invalid_request: replicas is required to scale' });
    const readOnly = await startTestAgent({ config: { mcpReadOnly: true }, start: false });
    try {
      const { tools } = await (await connect(readOnly)).listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...readTools].sort());
    } finally {
      await readOnly.close();
    }
  });

  it('serves /mcp-readonly beside /mcp: the read tools only, a write tool refused by name, reads answered', async () => {
    const reader = await connect(fixture.agent, '/mcp-readonly');
    const { tools } = await reader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...readTools].sort());
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const ns = fixture.ns.name;
    const scale = { action: 'scale', kind: 'deploy', namespace: ns, name: 'web', replicas: 3 };
    const refused = await call(reader, 'manage_workload', scale);
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/manage_workload/);
    const web = await json<{ resource: { spec: { replicas: number } } }>(reader, 'get_resource', {
      kind: 'deployment',
      name: 'web',
      namespace: ns,
    });
    expect(web.resource.spec.replicas).not.toBe(3);
    // Its permissions tool reviews access (a create that changes nothing) and answers.
    const permissions = await call(reader, 'get_subject_permissions', {
      kind: 'User',
      name: 'ada',
      namespace: ns,
    });
    expect(permissions.isError, permissions.text).toBe(false);
  });

  it('applies YAML (a dry run changes nothing) and acts on an Argo CD Application, as the caller', async () => {
    const ns = fixture.ns.name;
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-mcp\ndata:\n  greeting: hello\n`;
    const dry = await json<{ results: { action: string; dryRun: boolean }[] }>(client, 'apply_resource', {
      yaml,
      namespace: ns,
      dry_run: true,
    });
    expect(dry.results).toEqual([expect.objectContaining({ action: 'created', dryRun: true })]);
    expect(
      (await call(client, 'get_resource', { kind: 'configmap', name: 'from-mcp', namespace: ns })).text,
    ).toMatch(/^not_found: /);
    const refused = await call(await connect(fixture.restricted), 'apply_resource', { yaml, namespace: ns });
    expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/^forbidden: /) });
    const applied = await json<{ results: { action: string; dryRun: boolean }[] }>(client, 'apply_resource', {
      yaml,
      namespace: ns,
    });
    expect(applied.results).toEqual([expect.objectContaining({ action: 'created', dryRun: false })]);
    const patch = { kind: 'configmap', name: 'from-mcp', namespace: ns, patch: '{"data":{"greeting":"hi"}}' };
    const wouldPatch = await json<{ dryRun: boolean; resource: { data: { greeting: string } } }>(
      client,
      'patch_resource',
      { ...patch, dry_run: true },
    );
    expect(wouldPatch).toMatchObject({ dryRun: true, resource: { data: { greeting: 'hi' } } });
    const greeting = async () =>
      (
        await json<{ resource: { data: { greeting: string } } }>(client, 'get_resource', {
          kind: 'configmap',
          name: 'from-mcp',
          namespace: ns,
        })
      ).resource.data.greeting;
    expect(await greeting()).toBe('hello');
    await json(client, 'patch_resource', patch);
    await waitUntil('the patched greeting in the cache', async () => (await greeting()) === 'hi', {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const notOperations = await call(client, 'patch_resource', { ...patch, patch_type: 'json' });
    expect(notOperations).toEqual({
      isError: true,
      text: 'invalid_request: patch must be a JSON array of operations for a json patch',
    });
    const custom = testCluster().kubeConfig('admin').makeApiClient(CustomObjectsApi);
    const argo = { group: 'argoproj.io', version: 'v1alpha1', plural: 'applications', namespace: ns };
    await custom.createNamespacedCustomObject({ ...argo, body: argoApplication('shop', ns) });
    const refreshed = await call(client, 'manage_gitops', {
      tool: 'argocd',
      action: 'refresh',
      namespace: ns,
      name: 'shop',
      hard: true,
    });
    expect(refreshed.isError, refreshed.text).toBe(false);
    const app = (await custom.getNamespacedCustomObject({ ...argo, name: 'shop' })) as {
      metadata: { annotations?: Record<string, string> };
    };
    expect(app.metadata.annotations?.['argocd.argoproj.io/refresh']).toBe('hard');
    const noKind = await call(client, 'manage_gitops', {
      tool: 'fluxcd',
      action: 'reconcile',
      namespace: ns,
      name: 'x',
    });
    expect(noKind).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^invalid_request: kind is required/),
    });
  });

  it('answers 404 JSON, never the web UI, where MCP clients look for OAuth metadata', async () => {
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/openid-configuration',
      '/mcp/.well-known/oauth-protected-resource',
    ]) {
      const res = await fixture.agent.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await res.json(), path).toMatchObject({ code: 'route_not_found' });
    }
  });

  it('is not served with --no-mcp; GET and DELETE are 405 on a stateless endpoint', async () => {
    const off = await startTestAgent({ config: { noMcp: true }, start: false });
    try {
      const res = await off.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
    const get = await fixture.agent.request('/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ code: 'method_not_allowed' });
    const del = await fixture.agent.request('/mcp', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('POST');
  });

  it('refuses a client whose Accept header lacks text/event-stream with 406 {error, code}', async () => {
    const res = await fixture.agent.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      error: expect.stringContaining('text/event-stream'),
      code: 'not_acceptable',
    });
  });
});
