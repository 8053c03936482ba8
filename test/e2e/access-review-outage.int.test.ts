import type { AddressInfo } from 'node:net';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { serverLogger } from '@binnacle/common/server';
import { ManualClock, startTestHub, type TestHub } from '@binnacle/hub/testing';
import { type ApiServerProxy, startApiServerProxy, waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Access reviews when the API server cannot answer them: the agent refuses with 503 `access_review_unavailable`
 * and logs why — never a grant, never a plain 403 that reads like "you may not" — while a real "no" stays a 403.
 * The agent (in cloud mode behind a real hub, so requests act for a person) reaches the API server through a
 * proxy only this file uses: stopping the proxy stops the API server for this agent, not for the other files.
 */
let proxy: ApiServerProxy;
let hub: TestHub;
let agent: TestAgent;
/** The same cluster without the hub: its own reviews (a cloud-mode agent's port answers only /api/health). */
let standalone: TestAgent;
let cookie: string;
let clusterId: string;
const logs: Record<string, unknown>[] = [];

const asOwner = (path: string) => hub.request('GET', `/c/${clusterId}${path}`, { as: { cookie } });
const unavailable = {
  error: expect.stringContaining('access could not be checked'),
  code: 'access_review_unavailable',
};

beforeAll(async () => {
  proxy = await startApiServerProxy();
  // The clock at now: the identity the hub signs expires a minute after it, by the agent's clock.
  hub = await startTestHub({
    clock: new ManualClock(new Date()),
    config: { port: 0, listenAddress: '127.0.0.1' },
  });
  await hub.hub.listen();
  cookie = (await hub.signInBreakGlass()).cookie;
  const created = (
    await hub.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'outage' } })
  ).json<{ id: string; token: string }>();
  clusterId = created.id;
  agent = await startTestAgent({
    config: {
      kubeconfig: proxy.kubeconfigPath,
      cloudUrl: `http://127.0.0.1:${(hub.hub.app.server.address() as AddressInfo).port}`,
      clusterToken: created.token,
    },
    log: serverLogger('warn', { write: (line: string) => void logs.push(JSON.parse(line)) }),
  });
  standalone = await startTestAgent({
    config: { kubeconfig: proxy.kubeconfigPath },
    log: serverLogger('warn', { write: (line: string) => void logs.push(JSON.parse(line)) }),
  });
  await waitUntil(
    'the agent to connect',
    () => Promise.resolve(Boolean(hub.hub.ctx.tunnels.get(clusterId))),
    {
      timeoutMs: 30_000,
      intervalMs: 100,
    },
  );
});

afterAll(async () => {
  await agent?.close();
  await standalone?.close();
  await hub?.close();
  await proxy?.close();
});

describe('an access review the API server cannot answer', () => {
  it('while it answers: a caller without the right gets 403 forbidden naming who and what', async () => {
    // The hub's owner role grants nothing cluster-scoped like PersistentVolumes here, whatever other files bind.
    const denied = await asOwner('/api/resources/persistentvolumes');
    expect(denied.status, denied.body).toBe(403);
    expect(denied.json()).toStrictEqual({
      error:
        'binnacle:user:admin@example.com cannot list persistentvolumes cluster-wide (groups: binnacle:role:owner)',
      code: 'forbidden',
    });
  });

  it('once the API server is stopped: 503 access_review_unavailable for a caller and for the agent itself, logged', async () => {
    await proxy.stop();
    const forCaller = await asOwner('/api/resources/nodes');
    expect(forCaller.status, forCaller.body).toBe(503);
    expect(forCaller.json()).toStrictEqual(unavailable);

    // The agent's own reviews (what its UI may offer) are no different: unknown is not "no".
    const forAgent = await standalone.request('/api/capabilities');
    expect(forAgent.status).toBe(503);
    expect(await forAgent.json()).toStrictEqual(unavailable);

    const logged = logs.filter((line) => line.code === 'access_review_unavailable');
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 40,
          detail: expect.objectContaining({
            review: 'SubjectAccessReview',
            attributes: { verb: 'list', group: '', resource: 'nodes' },
            cause: expect.stringContaining('is unreachable'),
          }),
        }),
        expect.objectContaining({
          level: 40,
          detail: expect.objectContaining({ review: 'SelfSubjectAccessReview' }),
        }),
      ]),
    );
  });

  it('once it is back: the next request is reviewed afresh — the failure was not kept as an answer', async () => {
    await proxy.resume();
    const denied = await asOwner('/api/resources/nodes');
    expect(denied.status, denied.body).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'forbidden' });
    expect((await standalone.request('/api/capabilities')).status).toBe(200);
  });
});
