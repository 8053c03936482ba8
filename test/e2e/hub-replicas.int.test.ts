import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindInNamespace, startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import {
  type ApiServerOnly,
  apiServerOnlyUp,
  createCluster,
  type HubOwner,
  type HubReplica,
  type HubReplicaSet,
  hubProcessBreakGlass,
  openSse,
  openTerminal,
  signInOwner,
  spawnHubReplicas,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Three `binnacle hub` processes on one PostgreSQL and one Redis behind HAProxy, as docs/scaling.md runs them,
 * with two real agents dialing HAProxy: alpha on the shared control plane (pods, so exec), beta on a second,
 * bare one. Each replica is also reached on its own port, so the ones that hold no tunnel relay to the one that
 * does.
 */

/** A cluster registered through the hub's API. */
interface Registered {
  id: string;
  token: string;
  /** A ConfigMap only this cluster has: an answer naming it came from this cluster. */
  marker: string;
}

const shared = testCluster();
const user = `binnacle:user:${hubProcessBreakGlass.email}`;
let dir: string | undefined;
let second: ApiServerOnly | undefined;
let set: HubReplicaSet | undefined;
let directory: Redis | undefined;
let namespace: { name: string; remove(): Promise<void> } | undefined;
let replicas: HubReplica[] = [];
const agents: TestAgent[] = [];
let owner: HubOwner;
let alpha: Registered;
let beta: Registered;

const ns = () => namespace?.name ?? '';
const lb = () => (set as HubReplicaSet).balancer;
const get = (base: string, path: string, cookie = owner.cookie) =>
  fetch(`${base}${path}`, { headers: { cookie } }).then(async (answer) => ({
    status: answer.status,
    body: await answer.text(),
  }));
const markerPath = (cluster: Registered, marker = cluster.marker) =>
  `/c/${cluster.id}/api/resources/configmaps/${ns()}/${marker}`;
const holderOf = async (cluster: Registered) => (await directory?.get(`bnc:tunnel:${cluster.id}`)) ?? '';
const report = (line: string) => process.stderr.write(`hub-replicas: ${line}\n`);

/** The namespace on the second control plane, a marker in it, and the hub's admin allowed to read it. */
async function seedSecond(plane: ApiServerOnly): Promise<void> {
  const config = new KubeConfig();
  config.loadFromFile(plane.kubeconfig);
  const core = config.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: ns() } } });
  await core.createNamespacedConfigMap({ namespace: ns(), body: { metadata: { name: 'beta-marker' } } });
  const rbac = config.makeApiClient(RbacAuthorizationV1Api);
  // No controller-manager there aggregates the built-in `admin` role: a role of its own.
  await rbac.createNamespacedRole({
    namespace: ns(),
    body: {
      metadata: { name: 'reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: ns(),
    body: {
      metadata: { name: 'hub-admin' },
      subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { kind: 'Role', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' },
    },
  });
}

/** alpha's marker and a pod to exec into, on a kwok node of the shared plane; the admin may exec there. */
async function seedShared(): Promise<void> {
  const core = shared.kubeConfig('admin').makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: ns(), body: { metadata: { name: 'alpha-marker' } } });
  await core.createNamespacedPod({
    namespace: ns(),
    body: { metadata: { name: 'shell' }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
  });
  await bindInNamespace(ns(), { kind: 'User', name: user }, 'admin');
  await waitUntil(
    'the pod to run',
    async () =>
      (await core.readNamespacedPod({ name: 'shell', namespace: ns() })).status?.phase === 'Running',
    { timeoutMs: 30_000, intervalMs: 200 },
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-hub-replicas-'));
  [second, set, namespace] = await Promise.all([
    apiServerOnlyUp(join(dir, 'second')),
    spawnHubReplicas({ count: 3 }),
    shared.namespace('replicas'),
  ]);
  replicas = set.replicas;
  directory = new Redis(set.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await directory.connect();
  await Promise.all([seedSecond(second), seedShared()]);
  owner = await signInOwner({ url: lb().url, publicUrl: lb().url });
  const register = async (name: string) => ({
    ...(await createCluster(lb(), owner, name)),
    marker: `${name}-marker`,
  });
  alpha = await register('alpha');
  beta = await register('beta');
  for (const [cluster, kubeconfig] of [
    [alpha, shared.kubeconfigPath('admin')],
    [beta, second.kubeconfig],
  ] as const) {
    agents.push(
      await startTestAgent({ config: { kubeconfig, cloudUrl: lb().url, clusterToken: cluster.token } }),
    );
  }
  for (const cluster of [alpha, beta]) {
    await waitUntil(
      `${cluster.marker} through HAProxy`,
      async () => {
        const answer = await get(lb().url, markerPath(cluster));
        if (answer.status !== 200) throw new Error(`${answer.status}: ${answer.body.slice(0, 300)}`);
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  directory?.disconnect();
  await Promise.all([set?.stop(), second?.down(), namespace?.remove()]);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 120_000);

describe('three hub replicas behind HAProxy', () => {
  it('every replica reaches both clusters: a request, an SSE stream, and on alpha an exec WebSocket', async () => {
    const holders = [await holderOf(alpha), await holderOf(beta)];
    for (const holder of holders) expect(replicas.map((r) => r.replicaUrl)).toContain(holder);
    // Three replicas, two tunnels: at least one replica holds neither and relays every request below.
    expect(replicas.filter((r) => !holders.includes(r.replicaUrl)).length).toBeGreaterThan(0);
    for (const { name, hub } of replicas) {
      for (const [cluster, other] of [
        [alpha, beta],
        [beta, alpha],
      ] as const) {
        const own = await get(hub.url, markerPath(cluster));
        expect(own.status, `${name} → ${cluster.marker}: ${own.body}`).toBe(200);
        expect(JSON.parse(own.body)).toMatchObject({ resource: { metadata: { name: cluster.marker } } });
        const foreign = await get(hub.url, markerPath(cluster, other.marker));
        expect(foreign.status, `${name}: ${other.marker} is not in ${cluster.marker}'s cluster`).toBe(404);
        const stream = await openSse(`${hub.url}/c/${cluster.id}/api/events/stream`, {
          cookie: owner.cookie,
        });
        try {
          expect(stream.status, name).toBe(200);
          await stream.next(() => true, 10_000);
        } finally {
          stream.close();
        }
      }
      const term = await openTerminal(`${hub.url}/c/${alpha.id}/api/pods/${ns()}/shell/exec?command=sh`, {
        cookie: owner.cookie,
        origin: lb().url,
      });
      term.input(`echo ${name}-$((40+2))\r`);
      await term.next(() => term.output().includes(`${name}-42`));
      term.input('exit 0\r');
      expect((await term.next((frame) => frame.type === 'exit')).code, name).toBe(0);
    }
  }, 120_000);

  it('refuses a relayed stream without a valid peer token on the replica port (401)', async () => {
    const holder = await holderOf(alpha);
    const session = http2.connect(holder);
    session.on('error', () => session.destroy());
    const relay = (peer: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({
          ':method': 'GET',
          ':path': '/api/health',
          'x-binnacle-peer-cluster': alpha.id,
          ...peer,
        });
        let status = 0;
        let body = '';
        stream.setTimeout(5_000, () => stream.destroy(new Error('no answer from the replica port in 5 s')));
        stream.on('response', (headers) => {
          status = Number(headers[':status']);
        });
        stream.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
        stream.end();
      });
    const expiry = Math.floor(Date.now() / 1000) + 60;
    const otherKey = createHmac('sha256', 'not this hub')
      .update(`${alpha.id}\n${expiry}`)
      .digest('base64url');
    try {
      for (const [what, peer] of [
        ['no peer token', {}],
        ['a forged token', { 'x-binnacle-peer': 'forged' }],
        ['a token under another key', { 'x-binnacle-peer': `${expiry}.${otherKey}` }],
      ] as const) {
        const answer = await relay(peer);
        expect(answer.status, what).toBe(401);
        expect(JSON.parse(answer.body), what).toMatchObject({ code: 'unauthenticated' });
      }
    } finally {
      session.destroy();
    }
  });

  it("sign-out on one replica cuts that session's stream held through another within 2 s, not another session's", async () => {
    const [through, signingOut] = replicas as [HubReplica, HubReplica];
    const leaving = await signInOwner({ url: signingOut.hub.url, publicUrl: lb().url });
    const staying = await signInOwner({ url: through.hub.url, publicUrl: lb().url });
    const open = (cookie: string) =>
      openSse(`${through.hub.url}/c/${alpha.id}/api/events/stream`, { cookie });
    const [cut, kept] = [await open(leaving.cookie), await open(staying.cookie)];
    try {
      await Promise.all([cut.next(() => true, 10_000), kept.next(() => true, 10_000)]);
      const started = performance.now();
      const signOut = await fetch(`${signingOut.hub.url}/api/auth/signout`, {
        method: 'POST',
        headers: { cookie: leaving.cookie, origin: lb().url },
      });
      expect(signOut.status, await signOut.text()).toBe(200);
      await waitUntil('the signed-out session’s stream to end', () => Promise.resolve(cut.ended()), {
        timeoutMs: 5_000,
        intervalMs: 10,
      });
      const cutMs = Math.round(performance.now() - started);
      report(`stream of the signed-out session cut ${cutMs} ms after the sign-out on another replica`);
      expect(cutMs).toBeLessThan(2_000);
      // The other session's stream survives the recheck (which has run by now): a change made after it still
      // reaches that stream.
      const after = 'after-the-signout';
      await shared
        .kubeConfig('admin')
        .makeApiClient(CoreV1Api)
        .createNamespacedConfigMap({ namespace: ns(), body: { metadata: { name: after } } });
      await kept.next(
        (event) => event.event === 'change' && JSON.stringify(event.data).includes(after),
        15_000,
      );
      expect(kept.ended()).toBe(false);
      expect((await get(through.hub.url, '/api/account', leaving.cookie)).status).toBe(401);
      expect((await get(through.hub.url, '/api/account', staying.cookie)).status).toBe(200);
    } finally {
      cut.close();
      kept.close();
    }
  });

  it('SIGKILL of the replica holding a tunnel: the cluster answers through the others within 35 s, same session', async () => {
    const holder = await holderOf(alpha);
    const victim = replicas.find((r) => r.replicaUrl === holder);
    if (!victim) throw new Error(`no replica has the replica URL ${holder} that holds alpha`);
    const survivors = replicas.filter((r) => r !== victim);
    const entries = [lb().url, ...survivors.map((r) => r.hub.url)];
    const killed = performance.now();
    await victim.hub.kill();
    const everywhere = async (cluster: Registered) =>
      (await Promise.all(entries.map((base) => get(base, markerPath(cluster))))).every(
        (a) => a.status === 200,
      );
    await waitUntil(
      `alpha through HAProxy and both survivors after ${victim.name} died`,
      () => everywhere(alpha),
      {
        timeoutMs: 40_000,
        intervalMs: 100,
      },
    );
    const backMs = Math.round(performance.now() - killed);
    report(
      `alpha answered again through HAProxy and both survivors ${backMs} ms after SIGKILL of ${victim.name}`,
    );
    expect(backMs).toBeLessThan(35_000);
    expect(survivors.map((r) => r.replicaUrl)).toContain(await holderOf(alpha));
    // beta was held by the dead replica or not: either way it answers everywhere too.
    await waitUntil('beta through HAProxy and both survivors', () => everywhere(beta), {
      timeoutMs: Math.max(1_000, 35_000 - backMs),
      intervalMs: 100,
    });
    // The session lives in PostgreSQL: the same cookie still signs the owner in, on every entry point.
    for (const base of entries) {
      const account = await get(base, '/api/account');
      expect(account.status, `${base}: ${account.body}`).toBe(200);
    }
  }, 90_000);
});
