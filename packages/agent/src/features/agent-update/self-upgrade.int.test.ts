import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { KubeObject } from '@binnacle/common';
import { helmBinary, repoRoot, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, startTestAgent, type TestAgent } from '../../testing/index.ts';
import { rolloutInProgress } from './service.ts';

/**
 * The agent chart installed with rbac.selfUpgrade=true from a private mirror's repository, and an agent running
 * as the chart's ServiceAccount with the two variables the chart gives it, behind an authenticating proxy
 * (`--auth-mode proxy`): ada may edit the namespace, bob may only view it.
 */
const run = promisify(execFile);
const cluster = testCluster();
const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
const mirror = 'mirror.internal:5000/team/binnacle';
let ns: { name: string; remove: () => Promise<void> };
let release: string;
let deployment: string;
let agent: TestAgent;
const unbind: (() => Promise<void>)[] = [];

const helm = async (...args: string[]) =>
  run(await helmBinary(), [...args, '--namespace', ns.name, '--kubeconfig', cluster.kubeconfigPath('admin')]);

const read = () => apps.readNamespacedDeployment({ name: deployment, namespace: ns.name });
const rolledOut = async () => !rolloutInProgress((await read()) as KubeObject);

async function upgrade(person: string, body: unknown, to: TestAgent = agent) {
  const response = await to.request('/api/agent/self-upgrade', {
    method: 'POST',
    headers: { 'x-forwarded-user': person, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const agentImage = (d: V1Deployment) =>
  d.spec?.template.spec?.containers.find((c) => c.name === 'agent')?.image;

beforeAll(async () => {
  ns = await cluster.namespace('self-upgrade');
  release = `su-${ns.name.slice(-6)}`;
  deployment = `${release}-binnacle-agent`;
  await helm(
    'install',
    release,
    resolve(repoRoot, 'charts/binnacle-agent'),
    '--set',
    'rbac.selfUpgrade=true',
    '--set',
    `image.repository=${mirror}`,
  );
  await waitUntil('the agent Deployment to roll out', rolledOut, { timeoutMs: 60_000, intervalMs: 250 });
  unbind.push(
    await bindInNamespace(ns.name, { kind: 'User', name: 'ada' }, 'edit'),
    await bindInNamespace(ns.name, { kind: 'User', name: 'bob' }, 'view'),
  );
  agent = await startTestAgent({
    config: {
      kubeconfig: await cluster.serviceAccountKubeconfig(ns.name, deployment),
      selfUpgradeNamespace: ns.name,
      selfUpgradeDeployment: deployment,
      authMode: 'proxy',
      authProxyAddresses: '127.0.0.1',
    },
  });
}, 120_000);

afterAll(async () => {
  await agent?.close();
  for (const remove of unbind) await remove();
  if (release) await helm('uninstall', release).catch(() => undefined);
  await ns?.remove();
});

describe('POST /api/agent/self-upgrade', () => {
  it("moves the agent's Deployment to the tag as helm's server-side apply, keeping the mirror's repository and the rest of the spec", async () => {
    const before = await read();
    expect(agentImage(before)).toBe(`${mirror}:0.1.0`);
    const answer = await upgrade('ada', { tag: '0.2.0' });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toEqual({ status: 'upgrade initiated', image: `${mirror}:0.2.0` });

    const after = await read();
    expect(agentImage(after)).toBe(`${mirror}:0.2.0`);
    const unchanged = structuredClone(before.spec) as NonNullable<V1Deployment['spec']>;
    const container = unchanged.template.spec?.containers.find((c) => c.name === 'agent');
    if (container) container.image = `${mirror}:0.2.0`;
    expect(after.spec).toEqual(unchanged);
    // Helm's field manager alone owns the image; no manager of Binnacle's own appeared.
    const owners = (after.metadata?.managedFields ?? [])
      .filter((entry) => JSON.stringify(entry.fieldsV1).includes('"f:image"'))
      .map((entry) => `${entry.manager} ${entry.operation}`);
    expect(owners).toEqual(['helm Apply']);
    expect(after.metadata?.managedFields?.map((entry) => entry.manager)).not.toContain('binnacle');
    await waitUntil('the upgraded Deployment to roll out', rolledOut, { timeoutMs: 60_000, intervalMs: 250 });
  });

  it('refuses a tag that is not an image tag, and any other body, with 400 naming the field', async () => {
    for (const body of [
      { tag: '0.2.0/../evil' },
      { tag: '' },
      { tag: '-rc' },
      { image: `${mirror}:0.3.0` },
    ]) {
      const answer = await upgrade('ada', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toMatchObject({ code: 'invalid_request' });
      expect(String(answer.json.error)).toMatch(/tag|image/);
    }
    expect(agentImage(await read())).toBe(`${mirror}:0.2.0`);
  });

  it('answers 403 to a caller who may not patch the Deployment, naming who and what', async () => {
    const answer = await upgrade('bob', { tag: '0.3.0' });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({
      code: 'forbidden',
      error: `bob cannot patch deployments.apps ${deployment} in namespace ${ns.name} (groups: none)`,
    });
    expect(agentImage(await read())).toBe(`${mirror}:0.2.0`);
  });

  it('answers 409 while the Deployment is rolling out', async () => {
    // A pod template no node accepts: the new ReplicaSet's pod stays pending, the rollout never completes.
    await apps.patchNamespacedDeployment(
      {
        name: deployment,
        namespace: ns.name,
        body: { spec: { template: { spec: { nodeSelector: { 'binnacle.test/none': 'x' } } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitUntil(
      'the controller to start the rollout',
      async () => {
        const live = await read();
        return (live.status?.observedGeneration ?? 0) >= (live.metadata?.generation ?? 0);
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const answer = await upgrade('ada', { tag: '0.3.0' });
    expect(answer.status, JSON.stringify(answer.json)).toBe(409);
    expect(answer.json).toMatchObject({ code: 'conflict', error: expect.stringContaining('rolling out') });
    expect(agentImage(await read())).toBe(`${mirror}:0.2.0`);
  });

  it('answers 404 when the Deployment is gone', async () => {
    await apps.deleteNamespacedDeployment({ name: deployment, namespace: ns.name });
    await waitUntil('the Deployment to be gone', async () => !(await read().catch(() => undefined)), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const answer = await upgrade('ada', { tag: '0.3.0' });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 'not_found' });
  });

  it('answers 503 naming rbac.selfUpgrade=true when the agent does not know its Deployment, and version-check says so', async () => {
    const plain = await startTestAgent({
      start: false,
      config: { authMode: 'proxy', authProxyAddresses: '127.0.0.1' },
    });
    try {
      const answer = await upgrade('ada', { tag: '0.3.0' }, plain);
      expect(answer.status).toBe(503);
      expect(answer.json).toMatchObject({
        code: 'self_upgrade_unavailable',
        error: expect.stringContaining('rbac.selfUpgrade=true'),
      });
      const check = (to: TestAgent) =>
        to.request('/api/version-check', { headers: { 'x-forwarded-user': 'ada' } }).then((r) => r.json());
      expect(await check(plain)).toMatchObject({ selfUpgrade: false });
      expect(await check(agent)).toMatchObject({ selfUpgrade: true });
    } finally {
      await plain.close();
    }
  });
});
