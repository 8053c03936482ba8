import { openSse, type SseEvent, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api } from '@kubernetes/client-node';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { logStreamEvents } from './schemas.ts';

const cluster = testCluster();
const apps = cluster.kubeConfig().makeApiClient(AppsV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

interface LogEvent {
  pod: string;
  container: string;
  timestamp?: string;
  line: string;
}

const logPods = (events: SseEvent[]) =>
  new Set(events.filter((e) => e.event === 'log').map((e) => (e.data as LogEvent).pod));

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('logs')]);
  await apps.createNamespacedDeployment({
    namespace: ns.name,
    body: {
      metadata: { name: 'api' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'api' } },
        template: {
          metadata: { labels: { app: 'api' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27.3' }] },
        },
      },
    },
  });
  await waitUntil(
    'two running pods',
    async () => {
      const { items } = await agent.json<{ items: { status: { phase: string } }[] }>(
        `/api/resources/pods?namespace=${ns.name}`,
      );
      return items.filter((p) => p.status.phase === 'Running').length === 2;
    },
    { timeoutMs: 30_000 },
  );
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

/** The pods of the Deployment once a rollout has settled: two, running, none terminating. */
async function podNames(): Promise<string[]> {
  let names: string[] = [];
  await waitUntil(
    'two settled pods',
    async () => {
      const { items } = await agent.json<{
        items: { metadata: { name: string; deletionTimestamp?: string }; status: { phase: string } }[];
      }>(`/api/resources/pods?namespace=${ns.name}`);
      names = items
        .filter((p) => p.status.phase === 'Running' && !p.metadata.deletionTimestamp)
        .map((p) => p.metadata.name);
      return names.length === 2 && items.length === 2;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  return names;
}

describe('workload log stream', () => {
  it('merges lines from both pods and follows a new pod after a rollout', async () => {
    const stream = await openSse(`${agent.url}/api/workloads/deployments/${ns.name}/api/logs/stream?tail=2`);
    try {
      expect(stream.status).toBe(200);
      const connected = await stream.next((e) => e.event === 'connected');
      const before = (connected.data as { pods: string[] }).pods;
      expect(before).toHaveLength(2);
      await waitUntil('lines from both pods', () => Promise.resolve(logPods(stream.events).size === 2), {
        timeoutMs: 15_000,
      });
      const line = stream.events.find((e) => e.event === 'log')?.data as LogEvent;
      expect(line).toMatchObject({
        container: 'app',
        line: expect.stringMatching(/^level=/),
        timestamp: expect.stringMatching(/^\d{4}-/),
      });

      await apps.patchNamespacedDeployment({
        namespace: ns.name,
        name: 'api',
        body: [
          {
            op: 'add',
            path: '/spec/template/metadata/annotations',
            value: { 'kubectl.kubernetes.io/restartedAt': new Date().toISOString() },
          },
        ],
      });
      const added = await stream.next(
        (e) => e.event === 'pod' && (e.data as { change: string }).change === 'added',
        30_000,
      );
      const newPod = (added.data as { pod: string }).pod;
      expect(before).not.toContain(newPod);
      await stream.next((e) => e.event === 'log' && (e.data as LogEvent).pod === newPod, 15_000);
      await stream.next(
        (e) => e.event === 'pod' && (e.data as { change: string }).change === 'removed',
        30_000,
      );
      // Every event the stream sent is the one its route documents (ADR 0107).
      const sent = stream.events.filter((e) => e.event in logStreamEvents);
      expect(sent.length).toBeGreaterThan(4);
      for (const { event, data } of sent)
        expect(Value.Check(logStreamEvents[event as keyof typeof logStreamEvents], data), event).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('refuses what is not a workload, and a missing one', async () => {
    const service = await agent.request(`/api/workloads/services/${ns.name}/api/logs/stream`);
    expect(service.status).toBe(400);
    expect(await service.json()).toEqual({
      error: 'workload logs follow Deployments, StatefulSets, DaemonSets, ReplicaSets and Jobs, not Service',
      code: 'unknown_kind',
    });
    const missing = await agent.request(`/api/workloads/deployments/${ns.name}/nope/logs/stream`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
  });
});

describe('pod logs', () => {
  it('streams one container with its lines labelled', async () => {
    const [pod] = await podNames();
    const stream = await openSse(`${agent.url}/api/pods/${ns.name}/${pod}/logs/stream?tail=3`);
    try {
      expect(await stream.next((e) => e.event === 'connected')).toMatchObject({
        data: { namespace: ns.name, pods: [pod], containers: ['app'] },
      });
      const line = await stream.next((e) => e.event === 'log');
      expect(line.data).toMatchObject({ pod, container: 'app' });
    } finally {
      stream.close();
    }
  });

  it('reads the last lines at once, and the previous instance', async () => {
    const [pod] = await podNames();
    const quick = await agent.json<{
      container: string;
      containers: string[];
      lines: { line: string }[];
      truncated: boolean;
    }>(`/api/pods/${ns.name}/${pod}/logs?tail=3`);
    expect(quick).toMatchObject({ container: 'app', containers: ['app'], truncated: false });
    expect(quick.lines).toHaveLength(3);
    const previous = await agent.json<{ lines: { line: string }[] }>(
      `/api/pods/${ns.name}/${pod}/logs?previous=true`,
    );
    expect(previous.lines.map((l) => l.line)).toEqual([
      'level=error msg="connection refused: database not ready"',
      'level=fatal msg="exiting after 3 failed attempts"',
    ]);
  });

  it('answers 4xx for an unknown container, a missing pod and a bad parameter', async () => {
    const [pod] = await podNames();
    const cases: [string, number, string][] = [
      [
        `/api/pods/${ns.name}/${pod}/logs/stream?container=sidecar`,
        404,
        `pod ${ns.name}/${pod} has no container "sidecar"; it has: app`,
      ],
      [`/api/pods/${ns.name}/missing/logs/stream`, 404, `pod ${ns.name}/missing not found`],
      [`/api/pods/${ns.name}/${pod}/logs?tail=-1`, 400, 'query parameter "tail" must be >= 0'],
      [
        `/api/pods/${ns.name}/${pod}/logs?since=2d`,
        400,
        'query parameter "since": "2d" is not a duration like 168h, 20m, 90s or 1h30m (days are not accepted: write 48h)',
      ],
    ];
    for (const [path, status, error] of cases) {
      const res = await agent.request(path);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { error: string }).error, path).toBe(error);
    }
  });
});
