import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@binnacle/common';
import { testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../scope/timeline/types.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import type { ChangesBetween } from './service.ts';

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let ns: { name: string; remove: () => Promise<void> };
let dataDir: string;

beforeAll(async () => {
  ns = await cluster.namespace('tt-restart');
  dataDir = await mkdtemp(join(tmpdir(), 'binnacle-tt-restart-'));
});
afterAll(async () => {
  await ns?.remove();
  await rm(dataDir, { recursive: true, force: true });
});

/** An agent keeping its timeline (and so the objects' past states) in SQLite under one data dir, run after run. */
const sqliteAgent = () => startTestAgent({ config: { timelineStorage: 'sqlite', dataDir } });
// The value is a label: ConfigMap values are not kept by default (keys only), labels are, and diffed.
const configMap = (name: string, value: string) =>
  core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name, labels: { value } } } });
const setValue = (name: string, value: string) =>
  core.patchNamespacedConfigMap({
    namespace: ns.name,
    name,
    body: [{ op: 'replace', path: '/metadata/labels', value: { value } }],
  });
/** The ConfigMaps of the namespace as `name=value@resourceVersion`, from the agent (now or at `at`) or the API server. */
const shown = (items: KubeObject[]) =>
  items.map((o) => `${o.metadata?.name}=${o.metadata?.labels?.value}@${o.metadata?.resourceVersion}`).sort();
const agentList = async (agent: TestAgent, at?: number) =>
  shown(
    (
      await agent.json<{ items: KubeObject[] }>(
        `/api/resources/configmaps?namespace=${ns.name}${at ? `&at=${new Date(at).toISOString()}` : ''}`,
      )
    ).items.filter((o) => o.metadata?.name !== 'kube-root-ca.crt'),
  );
const apiServerList = async () =>
  shown(
    (await core.listNamespacedConfigMap({ namespace: ns.name })).items.filter(
      (o) => o.metadata?.name !== 'kube-root-ca.crt',
    ) as KubeObject[],
  );

describe('time travel across an agent restart (SQLite storage)', () => {
  it('keeps the past from before the restart, refuses the span not watched, and lists what changed meanwhile once', async () => {
    await Promise.all([configMap('keep', 'v1'), configMap('change', 'v1'), configMap('gone', 'v1')]);
    const first = await sqliteAgent();
    let atFirst: number;
    let firstState: string[];
    let atSecond: number;
    let secondState: string[];
    try {
      firstState = await apiServerList();
      await waitUntil(
        'the first agent to hold the three ConfigMaps',
        async () => (await agentList(first)).join() === firstState.join(),
        { timeoutMs: 10_000 },
      );
      atFirst = Date.now();
      await setValue('change', 'v2');
      secondState = await apiServerList();
      await waitUntil(
        'the first agent to see the change',
        async () => (await agentList(first)).join() === secondState.join(),
        { timeoutMs: 10_000 },
      );
      atSecond = Date.now();
    } finally {
      await first.close();
    }
    const stopped = Date.now();
    // While no agent watches: a change, a deletion, a creation.
    await setValue('change', 'v3');
    await core.deleteNamespacedConfigMap({ namespace: ns.name, name: 'gone' });
    await configMap('born', 'v1');
    const thirdState = await apiServerList();
    const resumedAfter = Date.now();

    const second = await sqliteAgent();
    try {
      // The past from before the restart, object by object, as the API server held it then.
      expect(await agentList(second, atFirst)).toEqual(firstState);
      expect(await agentList(second, atSecond)).toEqual(secondState);
      expect(await agentList(second)).toEqual(thirdState);

      // The span not watched: refused, naming it.
      const inGap = await second.request(
        `/api/resources/configmaps?namespace=${ns.name}&at=${new Date(Math.round((stopped + resumedAfter) / 2)).toISOString()}`,
      );
      expect(inGap.status).toBe(410);
      const refusal = (await inGap.json()) as { code: string; notWatched?: { from: string; to: string } };
      expect(refusal.code).toBe('outside_history');
      expect(Date.parse(refusal.notWatched?.from ?? '')).toBeGreaterThanOrEqual(atSecond);
      expect(Date.parse(refusal.notWatched?.from ?? '')).toBeLessThanOrEqual(stopped);
      expect(Date.parse(refusal.notWatched?.to ?? '')).toBeGreaterThanOrEqual(resumedAfter);

      // What changed between a moment before the restart and now, the span not watched included.
      const between = await second.json<ChangesBetween>(
        `/api/changes/between?from=${new Date(atSecond).toISOString()}&namespace=${ns.name}`,
      );
      const group = between.groups.find((g) => g.kind === 'ConfigMap');
      expect(group?.created.map((o) => o.name)).toEqual(['born']);
      expect(group?.deleted.map((o) => o.name)).toEqual(['gone']);
      expect(group?.modified.map((o) => o.name)).toEqual(['change']);

      // The timeline: the span once, what changed in it as changes at its end, and no creation recorded twice.
      const timeline = (path: string) =>
        second.json<{ events: TimelineEvent[] }>(`/api/changes?${path}&preset=all`);
      const spans = (await timeline('kind=Agent')).events.filter((e) => e.reason === 'NotWatching');
      expect(spans).toHaveLength(1);
      expect(spans[0]?.source).toBe('agent');
      const ours = (await timeline(`namespace=${ns.name}&kind=ConfigMap&limit=100`)).events;
      const of = (name: string) =>
        ours
          .filter((e) => e.name === name && e.source !== 'k8s_event')
          .map(
            (e) =>
              `${e.eventType}${e.diff ? `:${e.diff.fields.map((f) => `${f.path}=${JSON.stringify(f.new)}`).join()}` : ''}`,
          )
          .sort();
      expect(of('keep')).toEqual(['add']);
      expect(of('change')).toEqual([
        'add',
        'update:metadata.labels={"value":"v2"}',
        'update:metadata.labels={"value":"v3"}',
      ]);
      expect(of('gone')).toEqual(['add', 'delete']);
      expect(of('born')).toEqual(['add']);
    } finally {
      await second.close();
    }
  });
});
