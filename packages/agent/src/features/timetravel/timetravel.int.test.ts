import type { KubeObject } from '@binnacle/common';
import { deploymentBody, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTopology, defaultTopologyOptions, type TopologyInput } from '../../scope/topology/builder.ts';
import type { Topology } from '../../scope/topology/model.ts';
import { bindInNamespace, startTestAgent, type TestAgent } from '../../testing/index.ts';
import { call, json, mcpClients } from '../../testing/mcp-client.ts';
import type { ChangesBetween } from './service.ts';

const cluster = testCluster();
const kc = cluster.kubeConfig();
const apps = kc.makeApiClient(AppsV1Api);
const core = kc.makeApiClient(CoreV1Api);
let agent: TestAgent;
const connect = mcpClients();
let ns: { name: string; remove: () => Promise<void> };

/** The kinds compared: what the test changes, and what the controllers make of it (ReplicaSets, Pods). */
const kinds = ['configmaps', 'secrets', 'services', 'deployments', 'replicasets', 'pods'] as const;
type Kind = (typeof kinds)[number];
type Versions = Record<Kind, string[]>;
interface Listed {
  items?: KubeObject[];
}
const versionsOf = (list: { items?: { metadata?: { name?: string; resourceVersion?: string } }[] }) =>
  (list.items ?? []).map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`).sort();

/** What the API server holds in the test's namespace now: each object by name and resourceVersion. */
async function apiServerVersions(): Promise<Versions> {
  const namespace = ns.name;
  const [configmaps, secrets, services, deployments, replicasets, pods] = await Promise.all([
    core.listNamespacedConfigMap({ namespace }),
    core.listNamespacedSecret({ namespace }),
    core.listNamespacedService({ namespace }),
    apps.listNamespacedDeployment({ namespace }),
    apps.listNamespacedReplicaSet({ namespace }),
    core.listNamespacedPod({ namespace }),
  ]);
  return {
    configmaps: versionsOf(configmaps),
    secrets: versionsOf(secrets),
    services: versionsOf(services),
    deployments: versionsOf(deployments),
    replicasets: versionsOf(replicasets),
    pods: versionsOf(pods),
  };
}

/** The agent's lists of each kind, now or (`at`) as of a past moment. */
async function agentLists(at?: number): Promise<Record<Kind, KubeObject[]>> {
  const moment = at === undefined ? '' : `&at=${new Date(at).toISOString()}`;
  const lists = await Promise.all(
    kinds.map((kind) =>
      agent.json<Listed>(`/api/resources/${kind}?namespace=${ns.name}&limit=10000${moment}`),
    ),
  );
  return Object.fromEntries(kinds.map((kind, i) => [kind, (lists[i] as Listed).items ?? []])) as Record<
    Kind,
    KubeObject[]
  >;
}

const versionsOfLists = (lists: Record<Kind, KubeObject[]>) =>
  Object.fromEntries(kinds.map((kind) => [kind, versionsOf({ items: lists[kind] })])) as Versions;

/** A moment the history must answer for, with what the API server held then (and the objects themselves). */
interface Moment {
  at: number;
  versions: Versions;
  objects: Record<Kind, KubeObject[]>;
}

/**
 * A moment at which the agent held exactly what the API server held, and the API server held it before and after:
 * what the history must answer for that moment. Controllers still at work (a rollout's Pods) make it wait.
 */
async function settledMoment(): Promise<Moment> {
  let found: Moment | undefined;
  await waitUntil(
    'the agent to hold what the API server holds, with nothing moving',
    async () => {
      const before = await apiServerVersions();
      const objects = await agentLists();
      const at = Date.now();
      const after = await apiServerVersions();
      const seen = versionsOfLists(objects);
      const same =
        JSON.stringify(before) === JSON.stringify(seen) && JSON.stringify(before) === JSON.stringify(after);
      if (same) found = { at, versions: before, objects };
      return same;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  return found as Moment;
}

/** The graph's nodes and edges in one order, to compare two graphs of the same objects. */
const drawn = (graph: Topology) => ({
  nodes: [...graph.nodes].sort((a, b) => a.id.localeCompare(b.id)),
  edges: [...graph.edges].sort((a, b) => a.id.localeCompare(b.id)),
});

let changes = 0;
const changed = async <T>(call: Promise<T>) => {
  await call;
  changes += 1;
};

/** One round of twelve changes over several kinds: creates, updates, deletes, a scale and a rollout. */
async function round(n: number): Promise<void> {
  const namespace = ns.name;
  await changed(
    core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: `cm-${n}` }, data: { v: `${n}` } },
    }),
  );
  await changed(
    core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: `cm-${n}-b` }, data: { a: '1' } },
    }),
  );
  await changed(
    core.patchNamespacedConfigMap({
      namespace,
      name: `cm-${n}`,
      body: [{ op: 'add', path: '/data/w', value: `${n}` }],
    }),
  );
  await changed(
    core.createNamespacedSecret({
      namespace,
      body: { metadata: { name: `secret-${n}` }, stringData: { token: `t${n}` } },
    }),
  );
  await changed(
    core.createNamespacedService({
      namespace,
      body: {
        metadata: { name: `svc-${n}` },
        spec: { selector: { app: `web-${n}` }, ports: [{ port: 80 }] },
      },
    }),
  );
  await changed(apps.createNamespacedDeployment({ namespace, body: deploymentBody(`web-${n}`, 1) }));
  if (n > 0) {
    const previous = n - 1;
    await changed(core.deleteNamespacedConfigMap({ namespace, name: `cm-${previous}-b` }));
    await changed(
      core.patchNamespacedConfigMap({
        namespace,
        name: `cm-${previous}`,
        body: [{ op: 'replace', path: '/data/v', value: 'x' }],
      }),
    );
    await changed(
      apps.patchNamespacedDeploymentScale({
        namespace,
        name: `web-${previous}`,
        body: [{ op: 'replace', path: '/spec/replicas', value: 2 }],
      }),
    );
    await changed(
      apps.patchNamespacedDeployment({
        namespace,
        name: `web-${previous}`,
        body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: `web-${previous}:2` }],
      }),
    );
    await changed(core.deleteNamespacedService({ namespace, name: `svc-${previous}` }));
    await changed(core.deleteNamespacedSecret({ namespace, name: `secret-${previous}` }));
  }
  if (n > 1) await changed(apps.deleteNamespacedDeployment({ namespace, name: `web-${n - 2}` }));
}

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('timetravel')]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('time travel', () => {
  it('rebuilds every kind as the API server held it at 25 moments across ~300 changes', async () => {
    const moments: Moment[] = [];
    for (let n = 0; n < 25; n += 1) {
      await round(n);
      moments.push(await settledMoment());
    }
    expect(changes).toBeGreaterThanOrEqual(280);
    for (const [i, moment] of moments.entries()) {
      expect(versionsOfLists(await agentLists(moment.at)), `moment ${i}`).toEqual(moment.versions);
      // The namespace's topology then is the one drawn from the objects the API server held then.
      const past = await agent.json<Topology>(
        `/api/topology?namespace=${ns.name}&at=${new Date(moment.at).toISOString()}`,
      );
      const input: TopologyInput = {
        ConfigMap: moment.objects.configmaps,
        Secret: moment.objects.secrets,
        Service: moment.objects.services,
        Deployment: moment.objects.deployments,
        ReplicaSet: moment.objects.replicasets,
        Pod: moment.objects.pods,
      };
      expect(drawn(past), `topology at moment ${i}`).toEqual(
        drawn(buildTopology(input, defaultTopologyOptions)),
      );
      // The kinds list's counts then: each kind's objects in the namespace, as many as the API server held.
      const counted = await agent.json<{ counts: { name: string; count: number }[]; notKept: string[] }>(
        `/api/resource-counts?namespace=${ns.name}&at=${new Date(moment.at).toISOString()}`,
      );
      const countOf = (kind: Kind) => counted.counts.find((c) => c.name === kind)?.count;
      expect(
        kinds.map((kind) => countOf(kind)),
        `counts at moment ${i}`,
      ).toEqual(kinds.map((kind) => moment.versions[kind].length));
      expect(counted.notKept).toContain('events');
      // The dashboard then: its counts of the namespace as the API server held them.
      const board = await agent.json<{
        at: string;
        notKept: string[];
        counts: {
          pods: { total: number };
          deployments: { total: number };
          configMaps: number;
          secrets: number;
        };
      }>(`/api/dashboard?namespace=${ns.name}&at=${new Date(moment.at).toISOString()}`);
      expect(
        [
          board.counts.pods.total,
          board.counts.deployments.total,
          board.counts.configMaps,
          board.counts.secrets,
        ],
        `dashboard at moment ${i}`,
      ).toEqual([
        moment.versions.pods.length,
        moment.versions.deployments.length,
        moment.versions.configmaps.length,
        moment.versions.secrets.length,
      ]);
      expect(board.notKept).toContain('events');
    }
    // A Secret's past keeps its keys, never its values.
    const secret = await agent.json<{ resource: Record<string, unknown> }>(
      `/api/resources/secrets/${ns.name}/secret-3?at=${new Date((moments[3] as { at: number }).at).toISOString()}`,
    );
    expect(secret.resource.dataKeys).toEqual(['token']);
    expect(secret.resource.data).toBeUndefined();
  });

  it('names what was created, deleted and modified between two moments, with field diffs', async () => {
    const from = (await settledMoment()).at;
    const namespace = ns.name;
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'between-new' }, data: { a: '1' } },
    });
    await core.patchNamespacedConfigMap({
      namespace,
      name: 'cm-24',
      body: [{ op: 'replace', path: '/data/v', value: 'changed' }],
    });
    await core.deleteNamespacedConfigMap({ namespace, name: 'cm-24-b' });
    const to = (await settledMoment()).at;
    const answer = await agent.json<ChangesBetween>(
      `/api/changes/between?namespace=${namespace}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
    );
    const configMaps = answer.groups.find((g) => g.kind === 'ConfigMap');
    expect(configMaps?.created.map((o) => o.name)).toEqual(['between-new']);
    expect(configMaps?.deleted.map((o) => o.name)).toEqual(['cm-24-b']);
    // Values are not kept (keys only): the modified ConfigMap shows a change of its version, not of its value.
    expect(configMaps?.modified.map((o) => o.name)).toEqual(['cm-24']);
    expect(answer.groups.every((g) => g.namespace === namespace)).toBe(true);
    // A bounded answer: the counts stay whole, the groups list `limit` objects.
    const one = await agent.json<ChangesBetween>(
      `/api/changes/between?namespace=${namespace}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&limit=1`,
    );
    expect(one.counts).toEqual(answer.counts);
    expect(one.truncated).toBe(true);
    expect(one.groups.flatMap((g) => [...g.created, ...g.deleted, ...g.modified])).toHaveLength(1);
    // The search as of the earlier moment finds the ConfigMap deleted since; now it does not.
    const search = (at = '') =>
      agent.json<{ hits: { name: string }[] }>(`/api/search?q=cm-24-b&namespace=${namespace}${at}`);
    expect((await search(`&at=${new Date(from).toISOString()}`)).hits.map((h) => h.name)).toEqual([
      'cm-24-b',
    ]);
    expect((await search()).hits).toEqual([]);
    // One object's diff between the two moments.
    const single = await agent.json<ChangesBetween>(
      `/api/changes/between?namespace=${namespace}&kind=configmaps&name=cm-24&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
    );
    expect(single.counts).toEqual({ created: 0, deleted: 0, modified: 1 });
    expect(single.groups.map((g) => `${g.kind}/${g.modified.map((o) => o.name).join()}`)).toEqual([
      'ConfigMap/cm-24',
    ]);
    const nameless = await agent.request(
      `/api/changes/between?from=${new Date(from).toISOString()}&name=cm-24`,
    );
    expect(nameless.status).toBe(400);
  });

  it('answers 410 outside_history with the window for a moment before it, and 404 for an object that did not exist', async () => {
    const early = await agent.request(
      `/api/resources/configmaps?namespace=${ns.name}&at=2000-01-01T00:00:00Z`,
    );
    expect(early.status).toBe(410);
    const body = (await early.json()) as { code: string; oldest: string; newest: string };
    expect(body.code).toBe('outside_history');
    expect(Date.parse(body.oldest)).toBeLessThanOrEqual(Date.parse(body.newest));
    const future = await agent.request(
      `/api/resources/configmaps?namespace=${ns.name}&at=2999-01-01T00:00:00Z`,
    );
    expect(future.status).toBe(410);
    const between = await agent.request('/api/changes/between?from=2000-01-01T00:00:00Z');
    expect([between.status, ((await between.json()) as { code: string }).code]).toEqual([
      410,
      'outside_history',
    ]);
    // Read backwards, a moment after another: what was created going forward reads as deleted.
    const backwards = await agent.json<ChangesBetween>(
      `/api/changes/between?namespace=${ns.name}&from=${new Date().toISOString()}&to=${body.oldest}`,
    );
    expect(backwards.groups.some((g) => g.deleted.some((o) => o.name === 'between-new'))).toBe(true);
    const missing = await agent.request(`/api/resources/configmaps/${ns.name}/between-new?at=${body.oldest}`);
    expect(missing.status).toBe(404);
    const events = await agent.request(`/api/resources/events?namespace=${ns.name}&at=1m`);
    expect(events.status).toBe(400);
    const bad = await agent.request(`/api/resources/configmaps?at=yesterday`);
    expect(bad.status).toBe(400);
  });

  it('shows a caller the past only of what it may see now: its namespaces, and no Secrets with the view role', async () => {
    const unbind = await bindInNamespace(ns.name, { kind: 'User', name: 'tt-viewer' }, 'view');
    const proxied = await startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: '127.0.0.1' } });
    try {
      const as = { headers: { 'x-forwarded-user': 'tt-viewer' } };
      // Its history starts when it synced: the moment right after is inside the window.
      const since = new Date().toISOString();
      await core.createNamespacedConfigMap({
        namespace: ns.name,
        body: { metadata: { name: 'seen-later' } },
      });
      const at = `at=${since}`;
      const configMaps = await proxied.request(`/api/resources/configmaps?namespace=${ns.name}&${at}`, as);
      expect(configMaps.status).toBe(200);
      expect(((await configMaps.json()) as { source: string }).source).toBe('history');
      expect((await proxied.request(`/api/resources/secrets?namespace=${ns.name}&${at}`, as)).status).toBe(
        403,
      );
      expect((await proxied.request(`/api/resources/configmaps?namespace=default&${at}`, as)).status).toBe(
        403,
      );
      const between = await proxied.request(`/api/changes/between?from=${since}`, as);
      expect(between.status).toBe(200);
      const answer = (await between.json()) as ChangesBetween;
      expect(answer.groups.every((g) => g.namespace === ns.name && g.kind !== 'Secret')).toBe(true);
      await waitUntil(
        'the proxied agent to see the new ConfigMap',
        async () => {
          const later = await proxied.request(`/api/changes/between?from=${since}`, as);
          const groups = ((await later.json()) as ChangesBetween).groups;
          return groups.some((g) => g.kind === 'ConfigMap' && g.created.some((o) => o.name === 'seen-later'));
        },
        { timeoutMs: 10_000, intervalMs: 50 },
      );
    } finally {
      await proxied.close();
      await unbind();
    }
  });

  it('keeps nothing with a window of 0s, and answers every question about the past 404 time_travel_off', async () => {
    const off = await startTestAgent({ config: { timeTravelWindowMs: 0 } });
    try {
      expect(off.agent.ctx.history.versions.stats()).toEqual({ objects: 0, versions: 0, pastBytes: 0 });
      const since = new Date().toISOString();
      for (const path of [
        '/api/timetravel',
        `/api/resources/configmaps?namespace=${ns.name}&at=${since}`,
        `/api/changes/between?from=${since}`,
        `/api/topology?namespace=${ns.name}&at=${since}`,
      ]) {
        const answer = await off.request(path);
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
        expect(((await answer.json()) as { code: string }).code).toBe('time_travel_off');
      }
      const live = await off.json<{ items: unknown[] }>(`/api/resources/configmaps?namespace=${ns.name}`);
      expect(live.items.length).toBeGreaterThan(0);
    } finally {
      await off.close();
    }
  });

  it('answers assistants through MCP: the objects at a moment (get_cluster_at) and what changed (what_changed)', async () => {
    const client = await connect(agent);
    const from = (await settledMoment()).at;
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'asked-by-mcp' } },
    });
    const to = (await settledMoment()).at;
    const before = await json<{ items: string[] }>(client, 'get_cluster_at', {
      at: new Date(from).toISOString(),
      kind: 'configmaps',
      namespace: ns.name,
      limit: 200,
    });
    const after = await json<{ items: string[] }>(client, 'get_cluster_at', {
      at: new Date(to).toISOString(),
      kind: 'configmaps',
      namespace: ns.name,
      limit: 200,
    });
    const named = (items: string[]) => items.some((line) => line.includes('/asked-by-mcp'));
    expect(named(before.items)).toBe(false);
    expect(named(after.items)).toBe(true);
    const changed = await json<ChangesBetween>(client, 'what_changed', {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      namespace: ns.name,
    });
    expect(changed.groups.find((g) => g.kind === 'ConfigMap')?.created.map((o) => o.name)).toEqual([
      'asked-by-mcp',
    ]);
    const outside = await call(client, 'get_cluster_at', { at: '2000-01-01T00:00:00Z', kind: 'pods' });
    expect(outside).toMatchObject({ isError: true, text: expect.stringMatching(/^outside_history: /) });
  });
});
