import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { startOidcTestHub } from '@binnacle/hub/testing';
import {
  deploymentBody,
  docsScreenshot,
  helmBinary,
  hubRoleBindingsLock,
  launchBrowser,
  openSse,
  openTerminal,
  repoRoot,
  seeded,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { signIdentity } from '@binnacle/tunnel';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every part real: the local control plane, an agent in cloud mode dialing a hub over its tunnel, the hub
 * signing people in through a real IdP. The agent chart is installed (idp mode: no default bindings) and the
 * agent runs as the chart's ServiceAccount, so the chart's RBAC is all it has. Access inside the cluster is
 * decided by the cluster's RBAC for the forwarded subjects (binnacle:user:…, binnacle:role:…, binnacle:idp:…).
 */
const run = promisify(execFile);
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const core = admin.makeApiClient(CoreV1Api);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
let started: Awaited<ReturnType<typeof startOidcTestHub>>;
let agent: TestAgent;
let hubUrl: string;
let clusterId: string;
let namespace: { name: string; remove(): Promise<void> };
let agentNamespace: { name: string; remove(): Promise<void> };
let release: string;
let ada: string;
let adaPat: string;
const bindingName = 'platform-admins-read-secrets';
const ownersView = `binnacle-owners-view-${process.pid}`;

async function hub(
  path: string,
  init: {
    cookie?: string;
    pat?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    yaml?: string;
  } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = `__Host-binnacle_session=${init.cookie}`;
  if (init.pat) headers.authorization = `Bearer ${init.pat}`;
  if (init.method && init.method !== 'GET') headers.origin = 'https://hub.binnacle.test';
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.yaml !== undefined) headers['content-type'] = 'application/yaml';
  const body = init.yaml ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return fetch(`${hubUrl}${path}`, { method: init.method ?? 'GET', headers, body });
}

const helm = async (...args: string[]) =>
  run(await helmBinary(), [
    ...args,
    '--namespace',
    agentNamespace.name,
    '--kubeconfig',
    cluster.kubeconfigPath('admin'),
  ]);

const bindGroup = () =>
  rbac.createNamespacedRoleBinding({
    namespace: namespace.name,
    body: {
      metadata: { name: bindingName },
      subjects: [
        { kind: 'Group', name: 'binnacle:idp:/platform-admins', apiGroup: 'rbac.authorization.k8s.io' },
      ],
      roleRef: { kind: 'Role', name: 'read-secrets', apiGroup: 'rbac.authorization.k8s.io' },
    },
  });

// Whether the hub's role groups are bound cluster-wide decides what this file sees: another file installing
// the agent chart (default bindings) must not do so meanwhile.
let releaseRoleBindings: (() => Promise<void>) | undefined;

beforeAll(async () => {
  releaseRoleBindings = await cluster.lock(hubRoleBindingsLock);
  started = await startOidcTestHub({ config: { listenAddress: '127.0.0.1' } });
  hubUrl = await started.t.hub.listen();
  started.idp.groups.set('ada', ['/platform-admins']);
  ada = (await started.t.signInOidc(started.idp, 'ada')).cookie;
  const created = await started.t.request('POST', '/api/clusters', {
    as: { cookie: ada },
    body: { name: 'e2e' },
  });
  const registered = created.json<{ id: string; token: string }>();
  clusterId = registered.id;
  adaPat = (
    await started.t.request('POST', '/api/pats', { as: { cookie: ada }, body: { name: 'script' } })
  ).json<{ token: string }>().token;
  namespace = await cluster.namespace('tunnel');
  await core.createNamespacedSecret({
    namespace: namespace.name,
    body: { metadata: { name: 'db-password' }, stringData: { password: 'x' } },
  });
  await rbac.createNamespacedRole({
    namespace: namespace.name,
    body: {
      metadata: { name: 'read-secrets' },
      rules: [
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['pods/exec'], verbs: ['create', 'get'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'patch', 'delete'] },
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['get', 'patch'] },
      ],
    },
  });
  await bindGroup();
  await core.createNamespacedPod({
    namespace: namespace.name,
    body: { metadata: { name: 'shell' }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
  });
  agentNamespace = await cluster.namespace('binnacle-agent');
  release = `e2e-${agentNamespace.name.slice(-6)}`;
  await helm(
    'install',
    release,
    resolve(repoRoot, 'charts/binnacle-agent'),
    '--set',
    `cloud.url=${hubUrl}`,
    '--set',
    `cloud.clusterToken=${registered.token}`,
    '--set',
    'cloud.defaultRbac.create=false',
  );
  const kubeconfig = await cluster.serviceAccountKubeconfig(agentNamespace.name, `${release}-binnacle-agent`);
  agent = await startTestAgent({ config: { kubeconfig, cloudUrl: hubUrl, clusterToken: registered.token } });
  await waitUntil(
    'the agent to connect to the hub',
    () =>
      Promise.resolve(
        Boolean(started.t.hub.ctx.tunnels.get(clusterId)) && Boolean(agent.agent.ctx.cloud?.clusterId()),
      ),
    { timeoutMs: 15_000, intervalMs: 50 },
  );
});

afterAll(async () => {
  await agent?.close();
  await started?.close();
  await namespace?.remove();
  if (release) await helm('uninstall', release);
  await agentNamespace?.remove();
  await rbac.deleteClusterRoleBinding({ name: ownersView }).catch(() => undefined);
  await releaseRoleBindings?.();
});

const secretsPath = () => `/c/${clusterId}/api/resources/secrets?namespaces=${namespace.name}`;

const liveTunnel = () => {
  const live = started.t.hub.ctx.tunnels.get(clusterId);
  if (!live) throw new Error('the agent is not connected');
  return live;
};

/** An identity header signed as the hub signs it, for this cluster. */
const signedIdentity = (groups: string[]) =>
  signIdentity(liveTunnel().tokenHash, {
    user: 'binnacle:user:ada@example.com',
    groups,
    aud: clusterId,
    exp: Math.floor(Date.now() / 1000) + 60,
  });

/**
 * A request on the tunnel itself, as only the hub can send one. Without an identity header the agent acts as
 * itself: the view of the agent's own identity, which its port no longer offers in cloud mode.
 */
async function throughTunnel(path: string, headers: Record<string, string> = {}, body?: unknown) {
  const stream = liveTunnel().client.request(
    {
      ':method': 'GET',
      ':path': path,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    { endStream: body === undefined },
  );
  if (body !== undefined) stream.end(JSON.stringify(body));
  const [answer] = (await once(stream, 'response')) as [Record<string, unknown>];
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  await once(stream, 'end');
  return { status: answer[':status'], json: () => JSON.parse(text) as unknown, text };
}

describe('cloud mode through the hub tunnel', () => {
  it("runs as the agent chart's ServiceAccount: reads everything, writes nothing as itself", async () => {
    const user = `system:serviceaccount:${agentNamespace.name}:${release}-binnacle-agent`;
    expect((await throughTunnel(`/api/resources/secrets?namespaces=${namespace.name}`)).status).toBe(200);
    const write = await throughTunnel(`/api/resources/secrets/${namespace.name}/db-password`, {
      ':method': 'DELETE',
    });
    expect(write.status).toBe(403);
    expect(write.text).toContain(user);
  });

  it("refuses the agent's own port: pods, secrets, logs, exec and every other route get 401 direct_access_refused, even with a signed identity; /api/health answers", async () => {
    const pod = `/api/pods/${namespace.name}/shell`;
    const identity = { 'x-binnacle-identity': signedIdentity(['binnacle:role:owner']) };
    for (const [method, path] of [
      ['GET', '/api/resources/pods'],
      ['GET', `/api/resources/secrets?namespaces=${namespace.name}`],
      ['GET', `/api/resources/secrets/${namespace.name}/db-password`],
      ['DELETE', `/api/resources/secrets/${namespace.name}/db-password`],
      ['GET', `${pod}/logs?tail=5`],
      ['GET', `${pod}/logs/stream`],
      ['GET', `${pod}/files?path=/`],
      ['GET', '/api/events/stream'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/config'],
      ['GET', '/api/openapi.json'],
      ['GET', '/'],
      ['GET', '/resources/pods'],
      ['GET', '/assets/index.js'],
      ['GET', '/debug/pprof/heap'],
      ['GET', '/nowhere'],
    ] as const) {
      for (const headers of [{}, identity]) {
        const answer = await agent.request(path, { method, headers });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(await answer.json()).toEqual({
          code: 'direct_access_refused',
          error: `this agent is in cloud mode: reach it through its hub, ${hubUrl}/c/<cluster_id>/; its own port answers only /api/health`,
        });
      }
    }
    for (const headers of [{}, identity]) {
      await expect(openTerminal(`${agent.url}${pod}/exec?command=sh`, headers)).rejects.toMatchObject({
        status: 401,
        body: { code: 'direct_access_refused' },
      });
    }
    // The kubelet's probes keep working.
    expect((await agent.request('/api/health')).status).toBe(200);
    expect((await agent.request('/api/health', { method: 'HEAD' })).status).toBe(200);
  });

  it('a user whose IdP groups include /platform-admins reads Secrets only while a RoleBinding names binnacle:idp:/platform-admins', async () => {
    const allowed = await hub(secretsPath(), { cookie: ada });
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    expect(JSON.stringify(await allowed.json())).toContain('db-password');
    await rbac.deleteNamespacedRoleBinding({ name: bindingName, namespace: namespace.name });
    await waitUntil(
      'the removed binding to take effect',
      async () => (await hub(secretsPath(), { cookie: ada })).status === 403,
      { timeoutMs: 15_000, intervalMs: 500 },
    );
    const refused = await hub(secretsPath(), { cookie: ada });
    expect(await refused.json()).toMatchObject({
      code: 'forbidden',
      error: expect.stringContaining('binnacle:user:ada@example.com cannot list secrets'),
    });
    await bindGroup();
    await waitUntil(
      'the binding to take effect again',
      async () => (await hub(secretsPath(), { cookie: ada })).status === 200,
      { timeoutMs: 15_000, intervalMs: 500 },
    );
  });

  it('the same user through a PAT does not get the IdP group', async () => {
    const viaPat = await hub(secretsPath(), { pat: adaPat });
    expect(viaPat.status).toBe(403);
    const me = await (await hub(`/c/${clusterId}/api/auth/me`, { pat: adaPat })).json();
    expect(me).toEqual({
      authEnabled: true,
      authMode: 'cloud',
      username: 'binnacle:user:ada@example.com',
      groups: ['binnacle:role:owner'],
    });
  });

  it('strips client-supplied identity headers: only the hub identity reaches the agent', async () => {
    const me = await (
      await hub(`/c/${clusterId}/api/auth/me`, {
        cookie: ada,
        headers: {
          'impersonate-group': 'system:masters',
          'x-binnacle-identity': 'forged.value',
          'x-forwarded-user': 'root',
        },
      })
    ).json();
    expect(me).toMatchObject({
      username: 'binnacle:user:ada@example.com',
      groups: ['binnacle:role:owner', 'binnacle:idp:/platform-admins'],
    });
  });

  it('shows a namespace-scoped user only its namespaces in cluster-wide views', async () => {
    const json = async <T>(path: string) => {
      const answer = await hub(`/c/${clusterId}${path}`, { cookie: ada });
      expect(answer.status, `${path}: ${await answer.clone().text()}`).toBe(200);
      return (await answer.json()) as T;
    };
    const namespaces = await json<{ items: { name: string }[] }>('/api/namespaces');
    expect(namespaces.items.map((n) => n.name)).toEqual([namespace.name]);
    const pods = await json<{ items: { metadata: { namespace: string; name: string } }[] }>(
      '/api/resources/pods',
    );
    expect(pods.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual([
      `${namespace.name}/shell`,
    ]);
    // No right to list ConfigMaps anywhere: the documented empty list, not the cluster's ConfigMaps.
    expect((await json<{ items: unknown[] }>('/api/resources/configmaps')).items).toEqual([]);
    // What the UI says instead of an empty page: who she acts as, her view, and that she may list no ConfigMap.
    expect(await json('/api/capabilities?kind=configmaps')).toMatchObject({
      identity: {
        user: 'binnacle:user:ada@example.com',
        groups: expect.arrayContaining(['binnacle:role:owner']),
        impersonated: true,
      },
      view: {
        namespaces: [namespace.name],
        hiddenKinds: expect.arrayContaining(['Node']),
        unreadableKinds: [],
      },
      kind: { kind: 'ConfigMap', list: 'none', update: false, delete: false },
    });
    const topology = await json<{ nodes: { namespace?: string }[] }>('/api/topology');
    expect(topology.nodes.length).toBeGreaterThan(0);
    expect(new Set(topology.nodes.map((n) => n.namespace))).toEqual(new Set([namespace.name]));
    const changes = await json<{ events: { namespace?: string }[] }>('/api/changes?preset=all&limit=500');
    expect(changes.events.length).toBeGreaterThan(0);
    expect(changes.events.every((e) => e.namespace === namespace.name)).toBe(true);
    const dashboard = await json<{
      counts: { nodes: { total: number }; pods: { total: number } };
      problems: { namespace?: string; source: string }[];
      certificates?: { total: number };
      audit?: { passing: number; warning: number; danger: number };
    }>('/api/dashboard');
    expect(dashboard.counts.nodes.total).toBe(0); // Nodes are cluster-scoped and ada may not list them
    expect(dashboard.counts.pods.total).toBe(1);
    // Certificates and audit findings of her namespace only: the seeded TLS Secrets elsewhere are not hers to see.
    expect(dashboard.problems.filter((p) => p.namespace !== namespace.name)).toEqual([]);
    expect(dashboard.certificates?.total).toBe(0);
    const audit = await json<{ namespaces: { namespace?: string }[] }>('/api/audit');
    expect(audit.namespaces.map((n) => n.namespace)).toEqual([namespace.name]);
    const nodes = await hub(`/c/${clusterId}/api/resources/nodes`, { cookie: ada });
    expect(nodes.status).toBe(403);
    const otherNamespace = await hub(`/c/${clusterId}/api/resources/pods?namespaces=kube-system`, {
      cookie: ada,
    });
    expect(otherNamespace.status).toBe(403);
    // Helm releases live in Secrets: ada may list Secrets only in her namespace, which has none.
    expect((await json<{ total: number }>('/api/dashboard/pkgmgr')).total).toBe(0);
    expect((await json<{ total: number }>('/api/pkgmgr/releases')).total).toBe(0);
    // Reading or uninstalling a release needs `list secrets` in its namespace: refused before helm would run.
    const release = `/c/${clusterId}/api/pkgmgr/releases/${seeded.helmRelease.namespace}/${seeded.helmRelease.name}`;
    for (const method of ['GET', 'DELETE']) {
      const refused = await hub(release, { cookie: ada, method });
      expect(refused.status, method).toBe(403);
      expect(await refused.json()).toMatchObject({
        code: 'forbidden',
        error: expect.stringContaining('cannot list secrets'),
      });
    }
    // The agent's own view (a tunneled request without an identity) holds the whole cluster.
    const all = (await throughTunnel('/api/namespaces')).json() as { items: unknown[] };
    expect(all.items.length).toBeGreaterThan(1);
    expect(
      ((await throughTunnel('/api/dashboard/pkgmgr')).json() as { total: number }).total,
    ).toBeGreaterThan(0);
  });

  it('reads logs through the tunnel as the caller (pods/log), and refuses a PAT without the group', async () => {
    await waitUntil(
      'the pod to run',
      async () =>
        (await core.readNamespacedPod({ name: 'shell', namespace: namespace.name })).status?.phase ===
        'Running',
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const path = `/c/${clusterId}/api/pods/${namespace.name}/shell/logs?tail=5`;
    const logs = await hub(path, { cookie: ada });
    expect(logs.status, await logs.clone().text()).toBe(200);
    expect(await logs.json()).toMatchObject({ pod: 'shell', container: 'main', lines: expect.any(Array) });
    const viaPat = await hub(path, { pat: adaPat });
    expect(viaPat.status).toBe(403);
    expect(((await viaPat.json()) as { error: string }).error).toContain('cannot get pods/log');
  });

  it('streams a table window through the tunnel as the caller, then the pods that change in it', async () => {
    const outside = await hub(`/c/${clusterId}/api/tables/pods?namespace=kube-system`, { cookie: ada });
    expect(outside.status).toBe(403);
    const stream = await openSse(
      `${hubUrl}/c/${clusterId}/api/tables/pods/stream?namespace=${namespace.name}`,
      {
        cookie: `__Host-binnacle_session=${ada}`,
      },
    );
    try {
      const first = (await stream.next((e) => e.event === 'window')).data as {
        total: number;
        rows: { name: string }[];
      };
      expect(first.rows.map((r) => r.name)).toContain('shell');
      await core.createNamespacedPod({
        namespace: namespace.name,
        body: {
          metadata: { name: 'table-new' },
          spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] },
        },
      });
      const patch = await stream.next(
        (e) => e.event === 'patch' && JSON.stringify(e.data).includes('"name":"table-new"'),
      );
      expect(patch.data).toMatchObject({ total: first.total + 1 });
    } finally {
      stream.close();
      await core.deleteNamespacedPod({ namespace: namespace.name, name: 'table-new', gracePeriodSeconds: 0 });
    }
  });

  it('streams SSE (/api/events/stream) through the tunnel, for a role bound to cluster-wide view', async () => {
    // As the agent chart's default bindings do for hub roles (binnacle:role:owner → a cluster-wide role).
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: ownersView },
        subjects: [{ kind: 'Group', name: 'binnacle:role:owner', apiGroup: 'rbac.authorization.k8s.io' }],
        roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
      },
    });
    const stream = await openSse(`${hubUrl}/c/${clusterId}/api/events/stream`, {
      cookie: `__Host-binnacle_session=${ada}`,
    });
    try {
      const first = await stream.next(() => true);
      expect(first.event).toBeTruthy();
    } finally {
      stream.close();
    }
  });

  it('runs exec (a WebSocket route) through the tunnel as the caller, and refuses a foreign page', async () => {
    await waitUntil(
      'the pod to run',
      async () => {
        const pod = await core.readNamespacedPod({ name: 'shell', namespace: namespace.name });
        return pod.status?.phase === 'Running';
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    // kwok runs exec on this machine: plain sh, so no login script of the host (pyenv …) delays the shell.
    const url = `${hubUrl}/c/${clusterId}/api/pods/${namespace.name}/shell/exec?command=sh`;
    const cookie = `__Host-binnacle_session=${ada}`;
    const term = await openTerminal(url, { cookie, origin: 'https://hub.binnacle.test' });
    term.input('echo through-$((40+2))\r');
    await term.next(() => term.output().includes('through-42'));
    term.input('exit 0\r');
    expect((await term.next((frame) => frame.type === 'exit')).code).toBe(0);
    await expect(openTerminal(url, { cookie, origin: 'https://evil.example' })).rejects.toThrow(/403/);
    // A PAT carries no IdP group, so the cluster refuses it the exec.
    await expect(openTerminal(url, { authorization: `Bearer ${adaPat}` })).rejects.toThrow(/403.*pods\/exec/);
  });

  it('never shows the cluster token: GET /api/config says only that one is set', async () => {
    const { text } = await throughTunnel('/api/config');
    expect(text).not.toContain('bnc_');
    expect(JSON.parse(text).effective).toMatchObject({ cloudUrl: hubUrl, clusterTokenSet: true });
  });

  it('removes debug routes in cloud mode: 404 through the tunnel (and 401 on the refused direct port)', async () => {
    for (const path of ['/api/debug/informers', '/debug/pprof/heap']) {
      expect((await hub(`/c/${clusterId}${path}`, { cookie: ada })).status, path).toBe(404);
      expect((await throughTunnel(path)).status, path).toBe(404);
    }
  });

  it('writes through the tunnel as the caller: the API server decides, not the agent (which cannot write); the timeline names who applied and deleted', async () => {
    await core.createNamespacedConfigMap({
      namespace: namespace.name,
      body: { metadata: { name: 'doomed' } },
    });
    const path = `/c/${clusterId}/api/resources/configmaps/${namespace.name}/doomed`;
    const applied = await hub(path, {
      cookie: ada,
      method: 'PUT',
      yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: doomed\ndata:\n  state: applied\n',
    });
    expect(applied.status, await applied.clone().text()).toBe(200);
    const viaPat = await hub(path, { pat: adaPat, method: 'DELETE' });
    expect(viaPat.status).toBe(403);
    expect(((await viaPat.json()) as { error: string }).error).toMatch(
      /User "binnacle:user:ada@example\.com" cannot delete resource "configmaps"/,
    );
    const viaGroup = await hub(path, { cookie: ada, method: 'DELETE' });
    expect(viaGroup.status, await viaGroup.clone().text()).toBe(200);
    await expect(
      core.readNamespacedConfigMap({ name: 'doomed', namespace: namespace.name }),
    ).rejects.toThrow();
    const changes = await hub(
      `/c/${clusterId}/api/changes?namespace=${namespace.name}&kind=ConfigMap&name=doomed&preset=all`,
      { cookie: ada },
    );
    const { events } = (await changes.json()) as {
      events: { source: string; reason: string; actor?: object }[];
    };
    // Newest first; the refused delete changed nothing, so it is in the audit log only.
    const byAda = { user: 'binnacle:user:ada@example.com', identity: 'caller' };
    expect(events.filter((e) => e.source === 'action')).toEqual([
      expect.objectContaining({ reason: 'Delete', actor: expect.objectContaining(byAda) }),
      expect.objectContaining({ reason: 'Apply', actor: expect.objectContaining(byAda) }),
    ]);
  });

  it('scales a Deployment through the tunnel as the caller, and the timeline names who did it', async () => {
    await admin.makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace: namespace.name,
      body: deploymentBody('web'),
    });
    const path = `/c/${clusterId}/api/workloads/deployments/${namespace.name}/web/scale`;
    const viaPat = await hub(path, { pat: adaPat, method: 'POST', body: { replicas: 2 } });
    expect(viaPat.status).toBe(403);
    expect(((await viaPat.json()) as { error: string }).error).toMatch(
      /User "binnacle:user:ada@example\.com" cannot (get|patch) resource "deployments\/scale"/,
    );
    const viaGroup = await hub(path, { cookie: ada, method: 'POST', body: { replicas: 2 } });
    expect(viaGroup.status, await viaGroup.clone().text()).toBe(200);
    expect(await viaGroup.json()).toMatchObject({ replicas: 2, previous: 1 });
    const live = await admin
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ name: 'web', namespace: namespace.name });
    expect(live.spec?.replicas).toBe(2);
    const changes = await hub(
      `/c/${clusterId}/api/changes?namespace=${namespace.name}&kind=Deployment&name=web&preset=all`,
      { cookie: ada },
    );
    const events = (
      (await changes.json()) as { events: { source: string; reason: string; actor?: unknown }[] }
    ).events;
    expect(events.find((e) => e.source === 'action')).toMatchObject({
      reason: 'Scale',
      actor: {
        user: 'binnacle:user:ada@example.com',
        groups: expect.arrayContaining(['binnacle:idp:/platform-admins']),
      },
    });
  });

  it('installs, upgrades, rolls back and uninstalls a Helm release as the caller: a RoleBinding in one namespace allows exactly it', async () => {
    const deployer = 'helm-deployer';
    await rbac.createNamespacedRole({
      namespace: namespace.name,
      body: {
        metadata: { name: deployer },
        rules: [
          {
            apiGroups: ['', 'apps'],
            resources: ['secrets', 'configmaps', 'services', 'deployments', 'replicasets', 'pods'],
            verbs: ['*'],
          },
        ],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: namespace.name,
      body: {
        metadata: { name: deployer },
        subjects: [
          { kind: 'Group', name: 'binnacle:idp:/platform-admins', apiGroup: 'rbac.authorization.k8s.io' },
        ],
        roleRef: { kind: 'Role', name: deployer, apiGroup: 'rbac.authorization.k8s.io' },
      },
    });
    const releases = `/c/${clusterId}/api/pkgmgr/releases`;
    const install = (target: string) => ({
      releaseName: 'ledger',
      namespace: target,
      chartName: 'billing',
      version: '1.2.0',
      repository: 'demo',
    });
    try {
      // Without the IdP group (a PAT) ada may not touch releases in her namespace; with it, in no other.
      const viaPat = await hub(releases, { pat: adaPat, method: 'POST', body: install(namespace.name) });
      expect(viaPat.status).toBe(403);
      const elsewhere = await hub(releases, { cookie: ada, method: 'POST', body: install('demo-billing') });
      expect(elsewhere.status).toBe(403);
      expect(await elsewhere.json()).toMatchObject({
        error: expect.stringContaining('namespace demo-billing'),
      });

      const streamed = await hub(`${releases}/install-stream`, {
        cookie: ada,
        method: 'POST',
        body: install(namespace.name),
      });
      expect(streamed.status).toBe(200);
      const frames = (await streamed.text())
        .split('\n\n')
        .filter((block) => block.startsWith('data: '))
        .map((block) => JSON.parse(block.slice(6)) as { type: string; release?: unknown; message?: string });
      expect(frames.at(-1), JSON.stringify(frames.at(-1))).toMatchObject({
        type: 'complete',
        release: { revision: 1, status: 'deployed' },
      });
      const ledger = `${releases}/${namespace.name}/ledger`;
      const upgrade = await hub(`${ledger}/upgrade`, {
        cookie: ada,
        method: 'POST',
        body: { version: '1.3.0' },
      });
      expect(upgrade.status, await upgrade.clone().text()).toBe(200);
      expect(await upgrade.json()).toMatchObject({ release: { revision: 2, chartVersion: '1.3.0' } });
      const diff = await hub(`${ledger}/diff?revision1=1&revision2=2`, { cookie: ada });
      expect(((await diff.json()) as { diff: string }).diff).toContain('+    helm.sh/chart: billing-1.3.0');
      const preview = { values: { config: { currency: 'USD' } } };
      const refusedPreview = await hub(`${ledger}/values/preview`, {
        pat: adaPat,
        method: 'POST',
        body: preview,
      });
      expect(refusedPreview.status).toBe(403);
      const previewed = await hub(`${ledger}/values/preview`, { cookie: ada, method: 'POST', body: preview });
      expect(previewed.status, await previewed.clone().text()).toBe(200);
      expect(((await previewed.json()) as { manifestDiff: string }).manifestDiff).toContain(
        '+  CURRENCY: "USD"',
      );
      const rollback = await hub(`${ledger}/rollback`, { cookie: ada, method: 'POST', body: {} });
      expect(rollback.status, await rollback.clone().text()).toBe(200);
      expect(await rollback.json()).toMatchObject({ release: { revision: 3, chartVersion: '1.2.0' } });
      const changes = await hub(
        `/c/${clusterId}/api/changes?namespace=${namespace.name}&kind=HelmRelease&name=ledger&preset=all`,
        { cookie: ada },
      );
      const events = (
        (await changes.json()) as {
          events: { reason: string; actor?: { user: string; identity?: string } }[];
        }
      ).events;
      expect(events.map((e) => e.reason)).toEqual(
        expect.arrayContaining(['HelmInstall', 'HelmUpgrade', 'HelmRollback']),
      );
      expect(
        events.every(
          (e) => e.actor?.user === 'binnacle:user:ada@example.com' && e.actor.identity === 'caller',
        ),
      ).toBe(true);
      const uninstall = await hub(ledger, { cookie: ada, method: 'DELETE' });
      expect(uninstall.status, await uninstall.clone().text()).toBe(200);
    } finally {
      await rbac.deleteNamespacedRoleBinding({ name: deployer, namespace: namespace.name });
      await rbac.deleteNamespacedRole({ name: deployer, namespace: namespace.name });
    }
  });

  it('never believes a system: identity, even through the tunnel', async () => {
    // As if the hub signed it: a system: group is refused outright.
    const answer = await throughTunnel('/api/auth/me', {
      'x-binnacle-identity': signedIdentity(['system:masters']),
    });
    expect(answer.status).toBe(403);
    expect(answer.json()).toEqual({
      code: 'forbidden',
      error: 'system: users and groups cannot be forwarded into the cluster',
    });
  });

  it('lets only owners ask the agent to upgrade itself: 403 cloud_role_insufficient for members, viewers and no identity', async () => {
    const upgrade = (identity: Record<string, string>) =>
      throughTunnel('/api/agent/self-upgrade', { ':method': 'POST', ...identity }, { tag: '0.2.0' });
    for (const identity of [
      { 'x-binnacle-identity': signedIdentity(['binnacle:role:member']) } as Record<string, string>,
      { 'x-binnacle-identity': signedIdentity(['binnacle:role:viewer', 'binnacle:idp:/platform-admins']) },
      {},
    ]) {
      const refused = await upgrade(identity);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'cloud_role_insufficient' });
    }
    // An owner passes the gate; this agent was installed without rbac.selfUpgrade, so it cannot upgrade itself.
    const owner = await upgrade({ 'x-binnacle-identity': signedIdentity(['binnacle:role:owner']) });
    expect(owner.status, owner.text).toBe(503);
    expect(owner.json()).toMatchObject({
      code: 'self_upgrade_unavailable',
      error: expect.stringContaining('rbac.selfUpgrade=true'),
    });
  });

  it("answers 404 for another organization's cluster id and 503 for a cluster whose agent is offline", async () => {
    const other = await started.t.request('POST', '/api/clusters', {
      as: { cookie: ada },
      body: { name: 'offline' },
    });
    const offline = await hub(`/c/${other.json<{ id: string }>().id}/api/health`, { cookie: ada });
    expect(offline.status).toBe(503);
    expect(((await offline.json()) as { code: string }).code).toBe('cluster_offline');
    expect((await hub('/c/00000000-0000-0000-0000-000000000000/api/health', { cookie: ada })).status).toBe(
      404,
    );
  });

  it('shows the connection on GET /api/clusters, and a user removed from the hub is cut off at once', async () => {
    const listed = (await started.t.request('GET', '/api/clusters', { as: { cookie: ada } })).json<{
      items: { id: string; connected: boolean; agentVersion: string | null }[];
    }>();
    expect(listed.items.find((c) => c.id === clusterId)).toMatchObject({
      connected: true,
      agentVersion: expect.any(String),
    });
    const bob = await started.t.addUser(
      'bob@example.com',
      'member',
      (await started.t.request('GET', '/api/account', { as: { cookie: ada } })).json<{
        currentOrg: { id: string };
      }>().currentOrg.id,
    );
    expect((await hub(`/c/${clusterId}/api/health`, { cookie: bob.cookie })).status).toBe(200);
    const orgId = (await started.t.request('GET', '/api/account', { as: { cookie: ada } })).json<{
      currentOrg: { id: string };
    }>().currentOrg.id;
    await started.t.request('DELETE', `/api/orgs/${orgId}/members/${bob.userId}`, { as: { cookie: ada } });
    expect((await hub(`/c/${clusterId}/api/health`, { cookie: bob.cookie })).status).toBe(401);
  });

  it('serves the same web UI through the hub at /c/<cluster_id>/ with the session cookie, deep links included', async () => {
    // The page names where it lives and is never cached; its hashed assets may be (the one exception to no-store).
    const index = await hub(`/c/${clusterId}/`, { cookie: ada });
    expect(index.headers.get('cache-control')).toBe('no-store');
    const html = await index.text();
    expect(html).toContain(`<base href="/c/${clusterId}/" />`);
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await hub(`/c/${clusterId}/${script}`, { cookie: ada });
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      // What the hub's sign-in sets; Chromium sends Secure cookies to loopback over plain HTTP.
      await context.addCookies([
        {
          name: '__Host-binnacle_session',
          value: ada,
          domain: '127.0.0.1',
          path: '/',
          secure: true,
          httpOnly: true,
        },
      ]);
      const page = await context.newPage();
      await page.goto(`${hubUrl}/c/${clusterId}/`);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Connected' }).count()).toBe(1);
      await page.getByRole('link', { name: 'Timeline' }).click();
      await page.waitForURL(`${hubUrl}/c/${clusterId}/timeline`);
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      const deep = await context.newPage();
      await deep.goto(`${hubUrl}/c/${clusterId}/resources/pods?namespace=${namespace.name}`);
      await deep.getByRole('heading', { name: /^Pod/ }).waitFor();
      expect(new URL(deep.url()).pathname).toBe(`/c/${clusterId}/resources/pods`);
      await docsScreenshot(deep, 'through-hub');
      await context.close();
    } finally {
      await browser.close();
    }
  });

  it('rotating the token closes the live tunnel; the agent with the old token is refused', async () => {
    await started.t.request('POST', `/api/clusters/${clusterId}/rotate-token`, { as: { cookie: ada } });
    await waitUntil('the tunnel to close', () => Promise.resolve(!started.t.hub.ctx.tunnels.get(clusterId)), {
      timeoutMs: 5_000,
      intervalMs: 50,
    });
    const offline = await hub(`/c/${clusterId}/api/health`, { cookie: ada });
    expect(offline.status).toBe(503);
  });
});
