import { mapConcurrently } from '@binnacle/common';
import { deploymentBody, openSse, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../scope/timeline/types.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const kc = cluster.kubeConfig();
const apps = kc.makeApiClient(AppsV1Api);
const core = kc.makeApiClient(CoreV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

interface Page {
  events: TimelineEvent[];
  epoch: string;
  oldestSeq: number;
  latestSeq: number;
  stale: boolean;
}

async function deployment(name: string, replicas: number): Promise<void> {
  await apps.createNamespacedDeployment({ namespace: ns.name, body: deploymentBody(name, replicas) });
}

const scale = (name: string, replicas: number) =>
  apps.patchNamespacedDeploymentScale({
    namespace: ns.name,
    name,
    body: [{ op: 'replace', path: '/spec/replicas', value: replicas }],
  });

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('timeline')]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('the change timeline', () => {
  it('records a Deployment scale with a spec.replicas diff, in /api/changes and on the SSE stream', async () => {
    await deployment('web', 1);
    const stream = await openSse(`${agent.url}/api/events/stream?namespaces=${ns.name}`);
    try {
      expect(stream.status).toBe(200);
      await stream.next((e) => e.event === 'topology');
      await scale('web', 3);
      const isScale = (e: TimelineEvent) =>
        e.kind === 'Deployment' &&
        e.name === 'web' &&
        e.diff?.fields.some((f) => f.path === 'spec.replicas') === true;
      const live = await stream.next((e) => e.event === 'change' && isScale(e.data as TimelineEvent));
      expect((live.data as TimelineEvent).diff?.fields).toContainEqual({
        path: 'spec.replicas',
        old: 1,
        new: 3,
      });
      expect(live.id).toMatch(/^[0-9a-f-]{36}:\d+$/);
      const page = await agent.json<Page>(`/api/changes?namespace=${ns.name}&kind=Deployment&name=web`);
      expect(page.events.filter(isScale)).toHaveLength(1);
      expect(page.events.filter(isScale)[0]).toMatchObject({
        source: 'informer',
        eventType: 'update',
        group: 'apps',
        namespace: ns.name,
      });
    } finally {
      stream.close();
    }
  });

  it('serves deltas after a cursor in the order recorded, and says when a cursor is stale', async () => {
    const start = await agent.json<Page>(`/api/changes?namespace=${ns.name}&limit=1`);
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'delta-a' }, data: { a: '1' } },
    });
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'delta-b' }, data: { b: '1' } },
    });
    let delta: Page = start;
    await waitUntil(
      'both ConfigMaps on the timeline',
      async () => {
        delta = await agent.json<Page>(
          `/api/changes?namespace=${ns.name}&kind=ConfigMap&sinceSeq=${start.latestSeq}&epoch=${start.epoch}`,
        );
        return delta.events.length === 2;
      },
      { timeoutMs: 10_000 },
    );
    expect(delta.stale).toBe(false);
    expect(delta.events.map((e) => e.name)).toEqual(['delta-a', 'delta-b']);
    expect(delta.events.map((e) => e.reason)).toEqual(['Created', 'Created']);
    const otherEpoch = await agent.json<Page>(`/api/changes?sinceSeq=${start.latestSeq}&epoch=another-epoch`);
    expect(otherEpoch.stale).toBe(true);
  });

  it('names ConfigMap keys that changed, never their values', async () => {
    await core.patchNamespacedConfigMap({
      namespace: ns.name,
      name: 'delta-a',
      body: [{ op: 'replace', path: '/data', value: { a: 'secret-value-2', c: '3' } }],
    });
    let update: TimelineEvent | undefined;
    await waitUntil(
      'the ConfigMap update',
      async () => {
        const page = await agent.json<Page>(`/api/changes?namespace=${ns.name}&kind=ConfigMap&name=delta-a`);
        update = page.events.find((e) => e.eventType === 'update');
        return Boolean(update);
      },
      { timeoutMs: 10_000 },
    );
    expect(update?.diff?.fields).toEqual([
      { path: 'data.a', old: '(value)', new: '(changed)' },
      { path: 'data.c', new: '(added)' },
    ]);
    expect(JSON.stringify(update)).not.toContain('secret-value-2');
  });

  it('applies presets, filters and the documented limit', async () => {
    const warnings = await agent.json<Page>('/api/changes?preset=warnings-only&limit=50');
    expect(warnings.events.every((e) => e.eventType === 'Warning')).toBe(true);
    const workloads = await agent.json<Page>(`/api/changes?preset=workloads&namespace=${ns.name}`);
    expect(workloads.events.length).toBeGreaterThan(0);
    expect(
      workloads.events.every(
        (e) =>
          !e.owner &&
          ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Service', 'Ingress'].includes(e.kind),
      ),
    ).toBe(true);
    const defaults = await agent.json<Page>('/api/changes?limit=10000');
    expect(defaults.events.some((e) => ['Lease', 'Endpoints', 'EndpointSlice'].includes(e.kind))).toBe(false);
    const recent = await agent.json<Page>('/api/changes?since=1h&limit=5');
    expect(recent.events).toHaveLength(5);
    const tooMany = await agent.request('/api/changes?limit=10001');
    expect(await tooMany.json()).toEqual({
      error: 'query parameter "limit" must be <= 10000',
      code: 'invalid_request',
    });
    const badSince = await agent.request('/api/changes?since=7d');
    expect(((await badSince.json()) as { error: string }).error).toContain('days are not accepted');
  });

  it("lists a Deployment's children through owner references, ReplicaSets and Pods", async () => {
    const { events, root } = await agent.json<{ events: TimelineEvent[]; root: { kind: string } }>(
      `/api/changes/deployments/${ns.name}/web/children`,
    );
    expect(root.kind).toBe('Deployment');
    const kinds = new Set(events.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['ReplicaSet', 'Pod']));
    expect(events.filter((e) => e.kind === 'Pod' && e.reason === 'Created').length).toBeGreaterThanOrEqual(3);
  });

  it('answers 404 for the children of an object that neither exists nor was ever recorded', async () => {
    const res = await agent.request(`/api/changes/deployments/${ns.name}/never-was/children`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });

  it('serves Kubernetes Events from the cache, newest first, filtered', async () => {
    const { items } = await agent.json<{
      items: { type: string; involvedObject: { kind: string; name: string }; lastTimestamp?: string }[];
    }>(`/api/events?namespace=${ns.name}&kind=Deployment&name=web`);
    expect(items.length).toBeGreaterThan(0);
    expect(
      items.every((e) => e.involvedObject.kind === 'Deployment' && e.involvedObject.name === 'web'),
    ).toBe(true);
  });
});

describe('the order of the timeline', () => {
  /**
   * One ConfigMap's life, five changes: applied as YAML and deleted through the agent (two actions), updated
   * twice by another client, and a Kubernetes Event about it posted late, as a busy controller's event
   * broadcaster does: it says the thing happened up to a minute before the agent hears of it.
   */
  async function lifeOf(name: string, index: number): Promise<void> {
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  n: "0"\n`;
    const path = `/api/resources/configmaps/${ns.name}/${name}`;
    const applied = await agent.request(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/yaml' },
      body: yaml,
    });
    expect(applied.status, await applied.clone().text()).toBe(200);
    const { resource } = (await applied.json()) as { resource: { metadata: { uid: string } } };
    for (const n of ['1', '2'])
      await core.patchNamespacedConfigMap({
        namespace: ns.name,
        name,
        body: [{ op: 'replace', path: '/data/n', value: n }],
      });
    const happened = new Date(Date.now() - (1 + (index % 60)) * 1000);
    await core.createNamespacedEvent({
      namespace: ns.name,
      body: {
        metadata: { name: `${name}.late` },
        involvedObject: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          namespace: ns.name,
          name,
          uid: resource.metadata.uid,
        },
        reason: 'Probed',
        message: `probed ${name}`,
        type: 'Normal',
        count: 1,
        firstTimestamp: happened,
        lastTimestamp: happened,
        source: { component: 'binnacle-test' },
      },
    });
    const deleted = await agent.request(path, { method: 'DELETE' });
    expect(deleted.status, await deleted.clone().text()).toBe(200);
  }

  it('lists 500 changes made concurrently newest first by timestamp; deltas come in the order recorded', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `burst-${i}`);
    const before = await agent.json<Page>(`/api/changes?namespace=${ns.name}&limit=1`);
    await mapConcurrently(
      names.map((name, index) => ({ name, index })),
      20,
      ({ name, index }) => lifeOf(name, index),
    );
    // Actions are recorded before the agent answers; what the watches bring follows: per life, Created, two
    // updates, the Event and Deleted.
    const ofBurst = (events: TimelineEvent[]) => events.filter((e) => e.name.startsWith('burst-'));
    let page = before;
    await waitUntil(
      'the 500 watched entries of the burst on the timeline',
      async () => {
        page = await agent.json<Page>(`/api/changes?namespace=${ns.name}&preset=all&limit=10000`);
        return ofBurst(page.events).filter((e) => e.source !== 'action').length === 500;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const disorder = page.events.slice(1).flatMap((event, i) => {
      const previous = page.events[i] as TimelineEvent;
      const [a, b] = [Date.parse(previous.timestamp), Date.parse(event.timestamp)];
      return b > a || (b === a && event.seq > previous.seq)
        ? [
            `${previous.seq} ${previous.timestamp} ${previous.source} before ${event.seq} ${event.timestamp} ${event.source}`,
          ]
        : [];
    });
    expect(disorder).toEqual([]);
    const actions = ofBurst(page.events).filter((e) => e.source === 'action');
    expect(actions.filter((e) => e.reason === 'Apply')).toHaveLength(100);
    expect(actions.filter((e) => e.reason === 'Delete')).toHaveLength(100);
    // Nobody signs in to this agent: its own identity made them, and the entries say so.
    expect(new Set(actions.map((e) => `${e.actor?.user} as ${e.actor?.identity}`))).toEqual(
      new Set(['binnacle-admin as agent']),
    );
    const delta = await agent.json<Page>(
      `/api/changes?namespace=${ns.name}&preset=all&limit=10000&sinceSeq=${before.latestSeq}&epoch=${before.epoch}`,
    );
    expect(ofBurst(delta.events)).toHaveLength(700);
    expect(delta.events.every((e, i) => i === 0 || e.seq > (delta.events[i - 1] as TimelineEvent).seq)).toBe(
      true,
    );
  });
});

describe('the event stream', () => {
  it('resumes after Last-Event-ID with what was missed, each change once', async () => {
    const first = await openSse(`${agent.url}/api/events/stream?namespaces=${ns.name}`);
    const hello = await first.next((e) => e.event === 'hello');
    first.close();
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'missed-while-away' }, data: {} },
    });
    await waitUntil(
      'the missed change recorded',
      async () =>
        (await agent.json<Page>(`/api/changes?namespace=${ns.name}&name=missed-while-away`)).events.length >
        0,
      { timeoutMs: 10_000 },
    );
    const resumed = await openSse(`${agent.url}/api/events/stream?namespaces=${ns.name}`, {
      'last-event-id': hello.id as string,
    });
    try {
      await resumed.next(
        (e) => e.event === 'change' && (e.data as TimelineEvent).name === 'missed-while-away',
      );
      await core.createNamespacedConfigMap({
        namespace: ns.name,
        body: { metadata: { name: 'after-resume' }, data: {} },
      });
      await resumed.next((e) => e.event === 'change' && (e.data as TimelineEvent).name === 'after-resume');
      const ids = resumed.events.filter((e) => e.event === 'change').map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(resumed.events.some((e) => e.event === 'reset')).toBe(false);
    } finally {
      resumed.close();
    }
  });

  it('tells a client with a cursor from another epoch to reset', async () => {
    const stream = await openSse(`${agent.url}/api/events/stream`, { 'last-event-id': 'not-this-epoch:42' });
    try {
      await stream.next((e) => e.event === 'reset');
    } finally {
      stream.close();
    }
  });

  it('refuses clients beyond the cap with 503 too_many_streams', async () => {
    const capped = await startTestAgent({ config: { maxEventStreams: 2 } });
    const open = [
      await openSse(`${capped.url}/api/events/stream`),
      await openSse(`${capped.url}/api/events/stream`),
    ];
    try {
      const refused = await capped.request('/api/events/stream');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(await refused.json()).toEqual({
        error: 'the event stream already has 2 clients; retry later',
        code: 'too_many_streams',
      });
      expect((await capped.json<{ sessions: { events: number } }>('/api/debug/events')).sessions.events).toBe(
        2,
      );
    } finally {
      for (const s of open) s.close();
      await capped.close();
    }
  });
});

describe('timeline storage', () => {
  it('keeps changes in SQLite across an agent restart', async () => {
    const first = await startTestAgent({ config: { timelineStorage: 'sqlite' } });
    const dataDir = first.dataDir;
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'survives-restart' }, data: {} },
    });
    let before: Page | undefined;
    await waitUntil(
      'the change recorded',
      async () => {
        before = await first.json<Page>(`/api/changes?namespace=${ns.name}&name=survives-restart`);
        return before.events.length > 0;
      },
      { timeoutMs: 10_000 },
    );
    await first.agent.close();
    const second = await startTestAgent({ config: { timelineStorage: 'sqlite', dataDir } });
    try {
      const after = await second.json<Page>(`/api/changes?namespace=${ns.name}&name=survives-restart`);
      expect(after.epoch).toBe(before?.epoch);
      expect(after.events.map((e) => e.seq)).toEqual(before?.events.map((e) => e.seq));
      expect((await second.json('/api/debug/events')).store).toMatchObject({
        kind: 'sqlite',
        pruneFailures: 0,
      });
    } finally {
      await second.close();
    }
  });

  it('keeps exactly --history-limit entries in memory', async () => {
    const small = await startTestAgent({ config: { historyLimit: 100 } });
    try {
      await waitUntil(
        'the store to fill',
        async () => (await small.json<Page>('/api/changes?preset=all&limit=10000')).events.length === 100,
        { timeoutMs: 10_000 },
      );
      const page = await small.json<Page>('/api/changes?preset=all&limit=10000');
      expect(page.events).toHaveLength(100);
      expect(page.latestSeq).toBeGreaterThan(100);
    } finally {
      await small.close();
    }
  });
});

describe('a kind that syncs with objects in it', () => {
  it("records each running pod's creation and start from its metadata, as a new agent syncs", async () => {
    await deployment('history', 2);
    const pods = () => core.listNamespacedPod({ namespace: ns.name, labelSelector: 'app=history' });
    await waitUntil(
      'the pods of history to start',
      async () => (await pods()).items.filter((p) => p.status?.startTime).length === 2,
      { timeoutMs: 60_000 },
    );
    const started = (await pods()).items;
    const names = started.map((p) => p.metadata?.name);
    const fresh = await startTestAgent();
    try {
      const historical = async () =>
        (
          await fresh.json<Page>(`/api/changes?namespace=${ns.name}&kind=Pod&preset=all&limit=1000`)
        ).events.filter((e) => e.source === 'historical' && names.includes(e.name));
      await waitUntil("the pods' past to be recorded", async () => (await historical()).length === 4, {
        timeoutMs: 30_000,
      });
      const entries = await historical();
      for (const pod of started) {
        const mine = entries.filter((e) => e.name === pod.metadata?.name);
        expect(mine.map((e) => e.reason).sort()).toEqual(['Created', 'Started']);
        expect(mine.find((e) => e.reason === 'Started')).toMatchObject({
          eventType: 'update',
          timestamp: new Date(pod.status?.startTime as Date).toISOString(),
          message: `pod started on ${pod.spec?.nodeName}`,
        });
      }
    } finally {
      await fresh.close();
    }
  });
});
