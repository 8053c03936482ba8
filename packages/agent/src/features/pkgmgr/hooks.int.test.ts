import { testCluster, waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseWithFailedHook, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Hook diagnostics against a real helm: a chart whose pre-upgrade hook is a Job that cannot be scheduled and
 * gives up after 3 s (DeadlineExceeded), upgraded with --rollback-on-failure, so Helm records the hook as failed,
 * the upgrade's revision as failed, and a rollback revision after it.
 */
const cluster = testCluster();
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let helmOutput = '';

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('hooks')]);
  helmOutput = await releaseWithFailedHook(ns.name);
  await waitUntil(
    'the rollback revision in the cache',
    async () => {
      const res = await agent.request(`/api/pkgmgr/releases/${ns.name}/hooky`);
      return res.ok && ((await res.json()) as { revision: number }).revision === 3;
    },
    { timeoutMs: 30_000 },
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

interface Diagnostics {
  revision: number;
  status: string;
  description: string;
  failedHook?: string;
  hooks: {
    name: string;
    kind: string;
    namespace: string;
    events: string[];
    phase: string;
    deletePolicies: string[];
    present?: boolean;
    job?: { failed: number; condition?: { type: string; reason: string; message: string } };
    hookEvents: { reason: string; object: string; message: string }[];
  }[];
  rollbacks: {
    revision: number;
    to: number;
    failed?: { revision: number; status: string; description: string };
  }[];
}

describe('GET /api/pkgmgr/releases/{namespace}/{name}/hooks', () => {
  it('finds the failed hook of the rolled-back upgrade, its Job condition and events, and the rollback', async () => {
    expect(helmOutput).toMatch(/pre-upgrade hooks failed/);
    const answer = await agent.json<Diagnostics>(`/api/pkgmgr/releases/${ns.name}/hooky/hooks`);
    expect(answer).toMatchObject({ revision: 2, status: 'failed', failedHook: 'hooky-migrate' });
    expect(answer.description).toMatch(/pre-upgrade hooks failed/);
    expect(answer.rollbacks).toEqual([
      {
        revision: 3,
        to: 1,
        at: expect.any(String),
        failed: { revision: 2, status: 'failed', description: answer.description },
      },
    ]);
    const [hook] = answer.hooks;
    expect(hook).toMatchObject({
      name: 'hooky-migrate',
      kind: 'Job',
      namespace: ns.name,
      events: ['pre-upgrade'],
      phase: 'Failed',
      deletePolicies: ['before-hook-creation'],
      present: true,
      job: { condition: { type: 'Failed', reason: 'DeadlineExceeded' } },
    });
    // The Job controller's own word for it, and the scheduler's for its pod.
    const reasons = hook?.hookEvents.map((e) => `${e.object} ${e.reason}`) ?? [];
    expect(reasons).toContain('Job/hooky-migrate DeadlineExceeded');
    expect(reasons.some((r) => /^Pod\/hooky-migrate-[a-z0-9]{5} FailedScheduling$/.test(r))).toBe(true);
  });

  it('diagnoses any revision asked for, and names the revisions there are for one that is not', async () => {
    const first = await agent.json<Diagnostics>(`/api/pkgmgr/releases/${ns.name}/hooky/hooks?revision=1`);
    expect(first).toMatchObject({ revision: 1, status: 'superseded' });
    expect(first.hooks[0]).toMatchObject({ name: 'hooky-migrate', phase: 'not run' });
    const missing = await agent.request(`/api/pkgmgr/releases/${ns.name}/hooky/hooks?revision=9`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'not_found',
      error: expect.stringContaining('1, 2, 3'),
    });
  });
});
