import { testCluster } from '@binnacle/testkit';
import { AppsV1Api, BatchV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const batch = admin.makeApiClient(BatchV1Api);
let agent: TestAgent;
let restricted: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let cronJobUid: string;

const suspended = async () =>
  (await batch.readNamespacedCronJob({ name: 'report', namespace: ns.name })).spec?.suspend;

beforeAll(async () => {
  [agent, restricted, ns] = await Promise.all([
    startTestAgent(),
    startTestAgent({ identity: 'restricted' }),
    cluster.namespace('cronjobs'),
  ]);
  const created = await batch.createNamespacedCronJob({
    namespace: ns.name,
    body: {
      metadata: { name: 'report' },
      spec: {
        schedule: '0 3 * * *',
        jobTemplate: {
          metadata: { labels: { team: 'data' } },
          spec: {
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'report', image: 'report:1' }] },
            },
          },
        },
      },
    },
  });
  cronJobUid = created.metadata?.uid ?? '';
  await admin.makeApiClient(AppsV1Api).createNamespacedDeployment({
    namespace: ns.name,
    body: {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'web:1' }] },
        },
      },
    },
  });
});
afterAll(async () => {
  await Promise.all([agent?.close(), restricted?.close(), ns?.remove()]);
});

describe('POST /api/cronjobs/{namespace}/{name}/trigger', () => {
  it('creates a Job from the template, owned by the CronJob and annotated as a manual run', async () => {
    const res = await agent.post(`/api/cronjobs/${ns.name}/report/trigger`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { jobName: string; message: string };
    expect(answer.jobName).toMatch(/^report-manual-\d+$/);
    const job = await batch.readNamespacedJob({ name: answer.jobName, namespace: ns.name });
    expect(job.metadata?.annotations?.['cronjob.kubernetes.io/instantiate']).toBe('manual');
    expect(job.metadata?.labels?.team).toBe('data');
    expect(job.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'CronJob', name: 'report', uid: cronJobUid, controller: true }),
    ]);
    expect(job.spec?.template.spec?.containers[0]?.image).toBe('report:1');
    const changes = await agent.json<{
      events: { source: string; reason: string; message: string; uid?: string }[];
    }>(`/api/changes?namespace=${ns.name}&kind=CronJob&name=report&preset=all`);
    expect(changes.events.find((e) => e.source === 'action')).toMatchObject({
      reason: 'Trigger',
      message: answer.message,
      uid: cronJobUid,
    });
  });

  it('answers 404 for a name that is not a CronJob', async () => {
    const res = await agent.post(`/api/cronjobs/${ns.name}/web/trigger`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', error: expect.stringContaining('web') });
  });
});

describe('POST /api/cronjobs/{namespace}/{name}/suspend and resume', () => {
  it('sets spec.suspend, and says when it already had that value', async () => {
    expect(await (await agent.post(`/api/cronjobs/${ns.name}/report/suspend`)).json()).toMatchObject({
      suspended: true,
      changed: true,
    });
    expect(await suspended()).toBe(true);
    expect(await (await agent.post(`/api/cronjobs/${ns.name}/report/suspend`)).json()).toMatchObject({
      changed: false,
    });
    expect(await (await agent.post(`/api/cronjobs/${ns.name}/report/resume`)).json()).toMatchObject({
      suspended: false,
      changed: true,
    });
    expect(await suspended()).toBe(false);
  });
});

describe('refusals', () => {
  it('answers 403 with the API server reason when the identity may not', async () => {
    for (const action of ['trigger', 'suspend', 'resume']) {
      const res = await restricted.post(`/api/cronjobs/${ns.name}/report/${action}`);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'forbidden',
        error: expect.stringContaining('binnacle-restricted'),
      });
    }
  });

  it('answers 400 for names that cannot be Kubernetes names', async () => {
    const res = await agent.post(`/api/cronjobs/${ns.name}/Not_A_Name/trigger`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('name'),
    });
  });
});
