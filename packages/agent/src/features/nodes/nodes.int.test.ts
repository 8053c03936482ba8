import { randomBytes } from 'node:crypto';
import { clusterNodesLock, simulatedNode, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, PolicyV1Api, type V1PodSpec } from '@kubernetes/client-node';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Node operations on a Node of this file's own (kwok simulates it), tainted so that only this file's pods land
 * there: draining a shared node would evict other files' pods.
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const core = admin.makeApiClient(CoreV1Api);
const apps = admin.makeApiClient(AppsV1Api);
const policy = admin.makeApiClient(PolicyV1Api);
const node = `drain-${randomBytes(3).toString('hex')}`;
const taint = { key: 'binnacle.dev/dedicated', value: 'drain-test', effect: 'NoSchedule' };
let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let unlockNodes: (() => Promise<void>) | undefined;
const auditLines: { audit?: Record<string, unknown> }[] = [];

interface DrainAnswer {
  message?: string;
  error?: string;
  code?: string;
  node: string;
  cordoned: boolean;
  complete: boolean;
  dryRun: boolean;
  pods: { namespace: string; name: string; status: string; reason?: string }[];
}

const drain = async (body: unknown) => {
  const res = await agent.post(`/api/nodes/${node}/drain`, body);
  return { status: res.status, answer: (await res.json()) as DrainAnswer };
};
const onNode = async () =>
  (await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` })).items
    .filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata?.name ?? '')
    .sort();
const unschedulable = async () => (await core.readNode({ name: node })).spec?.unschedulable;
const pinned: Partial<V1PodSpec> = {
  nodeSelector: { 'kubernetes.io/hostname': node },
  tolerations: [{ key: taint.key, operator: 'Equal', value: taint.value, effect: 'NoSchedule' }],
};
const workload = (app: string) => ({
  selector: { matchLabels: { app } },
  template: {
    metadata: { labels: { app } },
    spec: { ...pinned, containers: [{ name: 'main', image: `${app}:1` }] },
  },
});

beforeAll(async () => {
  unlockNodes = await cluster.lock(clusterNodesLock);
  const log = pino({ level: 'info' }, { write: (line: string) => void auditLines.push(JSON.parse(line)) });
  [agent, restricted, ns] = await Promise.all([
    startTestAgent({ log }),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('nodes'),
  ]);
  const body = simulatedNode(node, 0, cluster.state.kubernetesVersion);
  body.metadata = { ...body.metadata, labels: { ...body.metadata?.labels, 'kubernetes.io/hostname': node } };
  body.spec = { ...body.spec, taints: [taint] };
  await core.createNode({ body });
  await apps.createNamespacedDeployment({
    namespace: ns.name,
    body: { metadata: { name: 'guarded' }, spec: { replicas: 2, ...workload('guarded') } },
  });
  await apps.createNamespacedDeployment({
    namespace: ns.name,
    body: { metadata: { name: 'free' }, spec: { replicas: 1, ...workload('free') } },
  });
  await apps.createNamespacedDaemonSet({
    namespace: ns.name,
    body: { metadata: { name: 'daemon' }, spec: workload('daemon') },
  });
  await policy.createNamespacedPodDisruptionBudget({
    namespace: ns.name,
    body: {
      metadata: { name: 'guarded' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'guarded' } } },
    },
  });
  await waitUntil(
    `4 running pods on ${node} and the budget counting 2 healthy`,
    async () => {
      const pods = await core.listNamespacedPod({
        namespace: ns.name,
        fieldSelector: `spec.nodeName=${node}`,
      });
      const running = pods.items.filter((p) =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'guarded', namespace: ns.name });
      return running.length === 4 && pdb.status?.currentHealthy === 2;
    },
    { timeoutMs: 45_000, intervalMs: 250 },
  );
});

afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close()]);
  await core.deleteNode({ name: node }).catch(() => undefined);
  await ns?.remove();
  await unlockNodes?.();
});

describe('POST /api/nodes/{name}/cordon and uncordon', () => {
  it('marks the node unschedulable and back, saying when nothing changed', async () => {
    const first = await agent.post(`/api/nodes/${node}/cordon`);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      kind: 'Node',
      name: node,
      unschedulable: true,
      changed: true,
    });
    expect(await unschedulable()).toBe(true);
    expect(await (await agent.post(`/api/nodes/${node}/cordon`)).json()).toMatchObject({ changed: false });
    expect(await (await agent.post(`/api/nodes/${node}/uncordon`)).json()).toMatchObject({
      unschedulable: false,
      changed: true,
    });
    expect(await unschedulable()).toBeUndefined();
  });
});

describe('POST /api/nodes/{name}/drain', () => {
  it('plans without touching anything on a dry run', async () => {
    const { status, answer } = await drain({ dryRun: true });
    expect(status).toBe(200);
    expect(answer).toMatchObject({ dryRun: true, complete: true, cordoned: false });
    expect(answer.pods.filter((p) => p.status === 'planned')).toHaveLength(3);
    expect(answer.pods.filter((p) => p.status === 'skipped').map((p) => p.name)).toEqual([
      expect.stringMatching(/^daemon-/),
    ]);
    expect(await unschedulable()).toBeUndefined();
  });

  it('refuses before evicting anything when a pod needs a switch, and leaves the node cordoned', async () => {
    const before = await onNode();
    const { status, answer } = await drain({ ignoreDaemonSets: false });
    expect(status).toBe(409);
    expect(answer.code).toBe('drain_incomplete');
    expect(answer.error).toContain('set ignoreDaemonSets');
    expect(answer.error).toContain('the node stays cordoned');
    expect(answer.pods.find((p) => p.status === 'refused')?.name).toMatch(/^daemon-/);
    expect(await onNode()).toEqual(before);
    expect(await unschedulable()).toBe(true);
  });

  it('stops at its timeout naming the pods a PodDisruptionBudget protects, then empties the node once relaxed', async () => {
    const started = Date.now();
    const blocked = await drain({ timeout: '3s' });
    // Ended by the 3 s it was given, not by the 60 s default: a bound that only catches the wrong deadline.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(blocked.status).toBe(409);
    expect(blocked.answer).toMatchObject({ code: 'drain_incomplete', cordoned: true, complete: false });
    const byStatus = (status: string) =>
      blocked.answer.pods.filter((p) => p.status === status).map((p) => p.name);
    expect(byStatus('blocked')).toEqual([
      expect.stringMatching(/^guarded-/),
      expect.stringMatching(/^guarded-/),
    ]);
    expect(byStatus('evicted')).toEqual([expect.stringMatching(/^free-/)]);
    expect(byStatus('skipped')).toEqual([expect.stringMatching(/^daemon-/)]);
    expect(blocked.answer.pods.find((p) => p.status === 'blocked')?.reason).toContain(
      'PodDisruptionBudget guarded (minAvailable 2, 2 healthy) refuses the eviction',
    );
    expect(await unschedulable()).toBe(true);
    expect(auditLines.map((l) => l.audit)).toContainEqual(
      expect.objectContaining({ action: 'drain', name: node, outcome: 'partial', code: 'drain_incomplete' }),
    );

    await policy.patchNamespacedPodDisruptionBudget({
      name: 'guarded',
      namespace: ns.name,
      body: [{ op: 'replace', path: '/spec/minAvailable', value: 0 }],
    });
    const done = await drain({ timeout: '45s' });
    expect(done.status).toBe(200);
    expect(done.answer).toMatchObject({ complete: true, cordoned: true });
    expect(done.answer.pods.filter((p) => p.status === 'evicted')).toHaveLength(2);
    expect(await onNode()).toEqual([expect.stringMatching(/^daemon-/)]);

    const changes = await agent.json<{
      events: { source: string; reason: string; eventType: string; actor?: { user: string } }[];
    }>(`/api/changes?kind=Node&name=${node}&preset=all`);
    expect(changes.events.filter((e) => e.source === 'action').map((e) => [e.reason, e.eventType])).toEqual([
      ['Drain', 'Normal'],
      ['Drain', 'Warning'],
      ['Drain', 'Warning'],
      ['Uncordon', 'Normal'],
      ['Cordon', 'Normal'],
      ['Cordon', 'Normal'],
    ]);
  });

  it.each([
    [{ timeout: '7d' }, 'timeout'],
    [{ timeout: '16m' }, 'timeout'],
    [{ gracePeriodSeconds: -1 }, 'gracePeriodSeconds'],
    [{ force: 'yes' }, 'force'],
    [{ evictEverything: true }, 'evictEverything'],
  ])('answers 400 to %j naming %s', async (body, field) => {
    const { status, answer } = await drain(body);
    expect(status).toBe(400);
    expect(answer).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(field) });
  });
});

describe('POST and DELETE /api/nodes/{name}/debug', () => {
  it('starts a privileged debugger pod on the node and deletes it again', async () => {
    const res = await agent.post(`/api/nodes/${node}/debug`, { namespace: ns.name, image: 'busybox:1.37' });
    expect(res.status).toBe(201);
    const answer = (await res.json()) as { pod: string; podNamespace: string; container: string };
    expect(answer).toMatchObject({ podNamespace: ns.name, container: 'debugger' });
    const pod = await core.readNamespacedPod({ name: answer.pod, namespace: ns.name });
    expect(pod.spec).toMatchObject({ nodeName: node, hostPID: true, hostNetwork: true, hostIPC: true });
    expect(pod.spec?.containers[0]?.securityContext?.privileged).toBe(true);
    expect(pod.spec?.volumes?.[0]?.hostPath?.path).toBe('/');

    const removed = await agent.request(`/api/nodes/${node}/debug?namespace=${ns.name}`, {
      method: 'DELETE',
    });
    expect(await removed.json()).toMatchObject({ deleted: [answer.pod] });
    await waitUntil(
      'the debugger pod to go',
      async () =>
        (
          await core.listNamespacedPod({
            namespace: ns.name,
            labelSelector: 'binnacle.dev/node-debugger=true',
          })
        ).items.every((p) => p.metadata?.deletionTimestamp),
      { timeoutMs: 10_000, intervalMs: 200 },
    );
  });
});

describe('refusals', () => {
  it('answers 404 for a node that does not exist', async () => {
    for (const action of ['cordon', 'uncordon', 'drain', 'debug']) {
      const res = await agent.post(`/api/nodes/no-such-node/${action}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('answers 403 with the API server reason when the identity may not', async () => {
    for (const action of ['cordon', 'drain', 'debug']) {
      const res = await restricted.post(`/api/nodes/${node}/${action}`);
      expect(res.status).toBe(403);
      const body = (await res.json()) as { code: string; error: string };
      expect(body.code).toBe('forbidden');
      expect(body.error).toContain('binnacle-restricted');
    }
  });
});
