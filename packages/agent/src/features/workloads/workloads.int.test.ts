import { testCluster, waitUntil } from '@binnacle/testkit';
import {
  AppsV1Api,
  AutoscalingV2Api,
  CustomObjectsApi,
  type V1PodTemplateSpec,
} from '@kubernetes/client-node';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Workload operations against the real API server: each change is checked where it lands (the object in the API
 * server), in the timeline (an action entry naming who) and in the audit log line.
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const apps = admin.makeApiClient(AppsV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
const auditLines: Record<string, unknown>[] = [];

type Answer = Record<string, unknown> & { message: string };
type ApiError = { error: string; code: string };
interface Revision {
  revision: number;
  current: boolean;
  images: string[];
  source: { kind: string; name: string };
}

const template = (app: string, image: string): V1PodTemplateSpec => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image }] },
});
const selector = (app: string) => ({ matchLabels: { app } });

async function createDeployment(name: string, image = 'nginx:1.27.0', replicas = 1) {
  await apps.createNamespacedDeployment({
    namespace: ns.name,
    body: {
      metadata: { name },
      spec: { replicas, selector: selector(name), template: template(name, image) },
    },
  });
}
const setImage = (kind: 'Deployment' | 'StatefulSet' | 'DaemonSet', name: string, image: string) => {
  const body = [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }];
  const args = { name, namespace: ns.name, body };
  if (kind === 'Deployment') return apps.patchNamespacedDeployment(args);
  if (kind === 'StatefulSet') return apps.patchNamespacedStatefulSet(args);
  return apps.patchNamespacedDaemonSet(args);
};
const revisions = async (kind: string, name: string) =>
  (await agent.json<{ items: Revision[] }>(`/api/workloads/${kind}/${ns.name}/${name}/revisions`)).items;
const waitForRevisions = (kind: string, name: string, count: number, current?: number) =>
  waitUntil(
    `${count} revisions of ${kind} ${name}`,
    async () => {
      const list = await revisions(kind, name);
      return (
        list.length >= count && (current === undefined || (list[0]?.revision === current && list[0].current))
      );
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
const actionsOn = async (kind: string, name: string) =>
  (
    await agent.json<{
      events: {
        source: string;
        reason: string;
        message: string;
        actor?: { user: string };
        eventType: string;
      }[];
    }>(`/api/changes?namespace=${ns.name}&kind=${kind}&name=${name}&preset=all`)
  ).events.filter((e) => e.source === 'action');

beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => void auditLines.push(JSON.parse(line)) });
  [agent, restricted, ns] = await Promise.all([
    startTestAgent({ log }),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('workloads'),
  ]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close(), ns?.remove()]);
});

describe('POST /api/workloads/{kind}/{namespace}/{name}/restart', () => {
  it('sets the restartedAt pod-template annotation, records who did it and writes an audit line', async () => {
    await createDeployment('restart-me');
    const res = await agent.post(`/api/workloads/deployments/${ns.name}/restart-me/restart`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Answer;
    expect(answer).toMatchObject({ kind: 'Deployment', namespace: ns.name, name: 'restart-me' });
    const live = await apps.readNamespacedDeployment({ name: 'restart-me', namespace: ns.name });
    expect(live.spec?.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBe(
      answer.restartedAt,
    );
    const [entry] = await actionsOn('Deployment', 'restart-me');
    expect(entry).toMatchObject({
      reason: 'Restart',
      eventType: 'Normal',
      actor: { user: 'binnacle-admin' },
      message: answer.message,
    });
    expect(auditLines).toContainEqual(
      expect.objectContaining({
        audit: expect.objectContaining({
          action: 'restart',
          user: 'binnacle-admin',
          kind: 'Deployment',
          namespace: ns.name,
          name: 'restart-me',
          outcome: 'succeeded',
        }),
      }),
    );
  });

  it('restarts StatefulSets and DaemonSets the same way, under any name kubectl takes', async () => {
    await apps.createNamespacedStatefulSet({
      namespace: ns.name,
      body: {
        metadata: { name: 'db' },
        spec: {
          serviceName: 'db',
          replicas: 1,
          selector: selector('db'),
          template: template('db', 'postgres:17'),
        },
      },
    });
    await apps.createNamespacedDaemonSet({
      namespace: ns.name,
      body: {
        metadata: { name: 'agent' },
        spec: { selector: selector('agent'), template: template('agent', 'fluentbit:3') },
      },
    });
    expect((await agent.post(`/api/workloads/sts/${ns.name}/db/restart`)).status).toBe(200);
    expect((await agent.post(`/api/workloads/DaemonSet/${ns.name}/agent/restart`)).status).toBe(200);
    const sts = await apps.readNamespacedStatefulSet({ name: 'db', namespace: ns.name });
    const ds = await apps.readNamespacedDaemonSet({ name: 'agent', namespace: ns.name });
    expect(sts.spec?.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBeTruthy();
    expect(ds.spec?.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBeTruthy();
  });

  it('refuses a paused Deployment with 409, as kubectl does', async () => {
    await createDeployment('paused');
    await apps.patchNamespacedDeployment({
      name: 'paused',
      namespace: ns.name,
      body: [{ op: 'add', path: '/spec/paused', value: true }],
    });
    const res = await agent.post(`/api/workloads/deployments/${ns.name}/paused/restart`);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'conflict', error: expect.stringContaining('paused') });
  });
});

describe('POST /api/workloads/{kind}/{namespace}/{name}/scale', () => {
  it('sets the replicas through the scale subresource and warns about an autoscaler', async () => {
    await createDeployment('scale-me');
    const res = await agent.post(`/api/workloads/deployments/${ns.name}/scale-me/scale`, { replicas: 3 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ replicas: 3, previous: 1 });
    const live = await apps.readNamespacedDeployment({ name: 'scale-me', namespace: ns.name });
    expect(live.spec?.replicas).toBe(3);

    await admin.makeApiClient(AutoscalingV2Api).createNamespacedHorizontalPodAutoscaler({
      namespace: ns.name,
      body: {
        metadata: { name: 'scale-me' },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'scale-me' },
          minReplicas: 2,
          maxReplicas: 5,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
            },
          ],
        },
      },
    });
    await waitUntil(
      'the autoscaler in the cache',
      async () => {
        const answer = (await (
          await agent.post(`/api/workloads/deployments/${ns.name}/scale-me/scale`, { replicas: 0 })
        ).json()) as Answer;
        return String(answer.warning).includes('HorizontalPodAutoscaler scale-me');
      },
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    expect(
      (await apps.readNamespacedDeployment({ name: 'scale-me', namespace: ns.name })).spec?.replicas,
    ).toBe(0);
  });

  it.each([
    [{ replicas: 10_001 }, 'replicas'],
    [{ replicas: -1 }, 'replicas'],
    [{ replicas: 2.5 }, 'replicas'],
    // JSON bodies are taken as typed: a number in a string is not coerced.
    [{ replicas: '3' }, 'replicas'],
    [{}, 'replicas'],
    [{ replicas: 1, extra: true }, 'extra'],
  ])('answers 400 to %j, naming %s', async (body, field) => {
    const res = await agent.post(`/api/workloads/deployments/${ns.name}/scale-me/scale`, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining(field),
    });
  });

  it('refuses to scale a DaemonSet', async () => {
    const res = await agent.post(`/api/workloads/daemonsets/${ns.name}/agent/scale`, { replicas: 2 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'unknown_kind',
      error: expect.stringContaining('DaemonSets cannot be scaled'),
    });
  });
});

describe('rollback and revisions', () => {
  it('rolls a Deployment back to the previous revision and then to a chosen one', async () => {
    await createDeployment('roll-me', 'nginx:1.26.0');
    await waitForRevisions('deployments', 'roll-me', 1);
    await setImage('Deployment', 'roll-me', 'nginx:1.27.0');
    await waitForRevisions('deployments', 'roll-me', 2, 2);
    const before = await revisions('deployments', 'roll-me');
    expect(before.map((r) => [r.revision, r.current, r.images, r.source.kind])).toEqual([
      [2, true, ['nginx:1.27.0'], 'ReplicaSet'],
      [1, false, ['nginx:1.26.0'], 'ReplicaSet'],
    ]);

    const res = await agent.post(`/api/workloads/deploy/${ns.name}/roll-me/rollback`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ revision: 1, changed: true });
    const live = await apps.readNamespacedDeployment({ name: 'roll-me', namespace: ns.name });
    expect(live.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.26.0');
    expect(live.spec?.template.metadata?.labels?.['pod-template-hash']).toBeUndefined();
    // The controller renumbers the old ReplicaSet as the newest revision, as after kubectl rollout undo.
    await waitForRevisions('deployments', 'roll-me', 2, 3);

    const again = await agent.post(`/api/workloads/deployments/${ns.name}/roll-me/rollback`, {
      revision: 3,
    });
    expect(await again.json()).toMatchObject({ revision: 3, changed: false });
    const back = await agent.post(`/api/workloads/deployments/${ns.name}/roll-me/rollback`, { revision: 2 });
    expect(await back.json()).toMatchObject({ revision: 2, changed: true });
    const after = await apps.readNamespacedDeployment({ name: 'roll-me', namespace: ns.name });
    expect(after.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.27.0');
    expect((await actionsOn('Deployment', 'roll-me')).map((e) => e.reason)).toEqual([
      'Rollback',
      'Rollback',
      'Rollback',
    ]);
  });

  it('answers 404 naming the history for a revision that does not exist', async () => {
    const res = await agent.post(`/api/workloads/deployments/${ns.name}/roll-me/rollback`, { revision: 99 });
    expect(res.status).toBe(404);
    const body = (await res.json()) as ApiError;
    expect(body.code).toBe('not_found');
    expect(body.error).toMatch(/no revision 99; its history holds revisions \d+, \d+/);
    expect(auditLines).toContainEqual(
      expect.objectContaining({
        audit: expect.objectContaining({
          action: 'rollback',
          name: 'roll-me',
          outcome: 'failed',
          code: 'not_found',
        }),
      }),
    );
  });

  it.each([
    ['StatefulSet', 'statefulsets', 'db', 'postgres:17', 'postgres:18'],
    ['DaemonSet', 'daemonsets', 'agent', 'fluentbit:3', 'fluentbit:4'],
  ] as const)(
    'rolls a %s back through its ControllerRevisions',
    async (kind, plural, name, first, second) => {
      await waitForRevisions(plural, name, 1);
      const [restarted] = await revisions(plural, name);
      await setImage(kind, name, second);
      await waitForRevisions(plural, name, 2, (restarted?.revision ?? 0) + 1);
      const history = await revisions(plural, name);
      expect(history[0]).toMatchObject({
        current: true,
        images: [second],
        source: { kind: 'ControllerRevision' },
      });
      const res = await agent.post(`/api/workloads/${plural}/${ns.name}/${name}/rollback`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ changed: true, revision: history[1]?.revision });
      const live =
        kind === 'StatefulSet'
          ? await apps.readNamespacedStatefulSet({ name, namespace: ns.name })
          : await apps.readNamespacedDaemonSet({ name, namespace: ns.name });
      expect(live.spec?.template.spec?.containers[0]?.image).toBe(first);
    },
  );
});

describe('Argo Rollouts (the CRD is installed)', () => {
  const rollout = (image: string) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: 'canary', namespace: ns.name, annotations: { 'rollout.argoproj.io/revision': '2' } },
    spec: { replicas: 2, selector: selector('canary'), template: template('canary', image) },
  });

  it('restarts with spec.restartAt, scales through the scale subresource and rolls back to a ReplicaSet', async () => {
    const created = (await custom.createNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace: ns.name,
      plural: 'rollouts',
      body: rollout('app:2'),
    })) as { metadata: { uid: string } };
    // The Rollouts controller is not installed: make the ReplicaSets it would keep as history.
    for (const [revision, image] of [
      [1, 'app:1'],
      [2, 'app:2'],
    ] as const) {
      await apps.createNamespacedReplicaSet({
        namespace: ns.name,
        body: {
          metadata: {
            name: `canary-${revision}`,
            labels: { app: 'canary', 'rollouts-pod-template-hash': `h${revision}` },
            annotations: { 'rollout.argoproj.io/revision': String(revision) },
            ownerReferences: [
              {
                apiVersion: 'argoproj.io/v1alpha1',
                kind: 'Rollout',
                name: 'canary',
                uid: created.metadata.uid,
                controller: true,
              },
            ],
          },
          spec: {
            replicas: 0,
            selector: { matchLabels: { app: 'canary', 'rollouts-pod-template-hash': `h${revision}` } },
            template: {
              metadata: { labels: { app: 'canary', 'rollouts-pod-template-hash': `h${revision}` } },
              spec: { containers: [{ name: 'main', image }] },
            },
          },
        },
      });
    }
    const read = () =>
      custom.getNamespacedCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace: ns.name,
        plural: 'rollouts',
        name: 'canary',
      }) as Promise<{ spec: { restartAt?: string; replicas: number; template: V1PodTemplateSpec } }>;

    const restart = (await (
      await agent.post(`/api/workloads/rollouts/${ns.name}/canary/restart`)
    ).json()) as Answer;
    expect((await read()).spec.restartAt).toBe(restart.restartedAt);
    expect((await agent.post(`/api/workloads/ro/${ns.name}/canary/scale`, { replicas: 4 })).status).toBe(200);
    expect((await read()).spec.replicas).toBe(4);
    expect((await revisions('rollouts', 'canary')).map((r) => [r.revision, r.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const back = await agent.post(`/api/workloads/rollouts/${ns.name}/canary/rollback`, { revision: 1 });
    expect(back.status).toBe(200);
    const live = await read();
    expect(live.spec.template.spec?.containers[0]?.image).toBe('app:1');
    expect(live.spec.template.metadata?.labels).toEqual({ app: 'canary' });
  });
});

describe('GET /api/workloads/{kind}/{namespace}/{name}/pods', () => {
  it("lists the pods the workload's selector matches", async () => {
    await createDeployment('three', 'nginx:1.27.0', 3);
    await waitUntil(
      'three pods in the cache',
      async () =>
        (await agent.json<{ total: number }>(`/api/workloads/deployments/${ns.name}/three/pods`)).total === 3,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const pods = await agent.json<{
      items: { metadata: { name: string; labels: Record<string, string> } }[];
    }>(`/api/workloads/deployments/${ns.name}/three/pods?limit=2`);
    expect(pods.items).toHaveLength(2);
    expect(pods.items.every((p) => p.metadata.labels.app === 'three')).toBe(true);
  });
});

describe('bad input and refusals', () => {
  it('answers 400 naming the allowed kinds for a kind that is not a workload', async () => {
    for (const kind of ['pods', 'configmaps', 'nosuchkind']) {
      const res = await agent.post(`/api/workloads/${kind}/${ns.name}/x/restart`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as ApiError;
      expect(body.code).toBe('unknown_kind');
      expect(body.error).toContain('deployments, statefulsets, daemonsets, rollouts');
    }
  });

  it('answers 404 for a workload that does not exist', async () => {
    const res = await agent.post(`/api/workloads/deployments/${ns.name}/nope/restart`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers 403 with the API server reason when the identity may not', async () => {
    for (const [path, body] of [
      ['restart', undefined],
      ['scale', { replicas: 2 }],
      ['rollback', {}],
    ] as const) {
      const res = await restricted.post(`/api/workloads/deployments/${ns.name}/restart-me/${path}`, body);
      expect(res.status).toBe(403);
      const answer = (await res.json()) as ApiError;
      expect(answer.code).toBe('forbidden');
      expect(answer.error).toContain('binnacle-restricted');
    }
  });
});
