import type { AddressInfo } from 'node:net';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { ManualClock, startTestHub, type TestHub } from '@binnacle/hub/testing';
import { waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * JSON bodies too deep or not UTF-8 (issue 37): 5 000 levels sent to `POST /api/resources/apply` overflowed the
 * stack in JSON.stringify (500), also from a hub viewer through `/c/<id>/…`; bytes that are not UTF-8 were kept
 * as U+FFFD. Both servers refuse them in their JSON parser, before any route runs.
 */
let hub: TestHub;
let agent: TestAgent;
let cloudAgent: TestAgent;
let clusterId: string;
let viewer: string;

const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const tooDeep = { error: 'the JSON body nests deeper than 200 levels', code: 'invalid_request' };
const notUtf8 = { error: 'the JSON body is not valid UTF-8', code: 'invalid_request' };
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  hub = await startTestHub({
    clock: new ManualClock(new Date()),
    config: { port: 0, listenAddress: '127.0.0.1' },
  });
  await hub.hub.listen();
  const owner = await hub.signInBreakGlass();
  viewer = (await hub.addUser('json-viewer@example.com', 'viewer', owner.orgId)).cookie;
  const created = (
    await hub.request('POST', '/api/clusters', { as: { cookie: owner.cookie }, body: { name: 'json' } })
  ).json<{ id: string; token: string }>();
  clusterId = created.id;
  [agent, cloudAgent] = await Promise.all([
    startTestAgent(),
    startTestAgent({
      config: {
        cloudUrl: `http://127.0.0.1:${(hub.hub.app.server.address() as AddressInfo).port}`,
        clusterToken: created.token,
      },
    }),
  ]);
  await waitUntil(
    'the agent to connect',
    () => Promise.resolve(Boolean(hub.hub.ctx.tunnels.get(clusterId))),
    {
      timeoutMs: 30_000,
      intervalMs: 100,
    },
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([agent?.close(), cloudAgent?.close()]);
  await hub?.close();
});

describe('a JSON body nested 5 000 levels deep', () => {
  it("is the agent's 400 invalid_request on POST /api/resources/apply", async () => {
    const res = await agent.request('/api/resources/apply?dryRun=true', {
      method: 'POST',
      headers: json,
      body: deep,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(tooDeep);
  });

  it('is the same 400 for a hub viewer through /c/<id>/, and on the hub’s own /mcp', async () => {
    const tunneled = await hub.request('POST', `/c/${clusterId}/api/resources/apply?dryRun=true`, {
      as: { cookie: viewer },
      headers: json,
      body: deep,
    });
    expect(tunneled.status, tunneled.body).toBe(400);
    expect(tunneled.json()).toEqual(tooDeep);
    const mcp = await hub.request('POST', '/mcp', {
      as: { cookie: viewer },
      headers: { ...json, accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_namespaces","arguments":${deep}}}`,
    });
    expect(mcp.status, mcp.body).toBe(400);
    expect(mcp.json()).toEqual(tooDeep);
  });
});

describe('a JSON body that is not UTF-8', () => {
  const body = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);

  it('is refused by the hub before it stores anything', async () => {
    const res = await hub.request('POST', '/api/orgs', { as: { cookie: viewer }, headers: json, body });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual(notUtf8);
  });

  it('is refused by the agent, directly and through the hub', async () => {
    const direct = await agent.request('/api/resources/apply?dryRun=true', {
      method: 'POST',
      headers: json,
      body,
    });
    expect(direct.status).toBe(400);
    expect(await direct.json()).toEqual(notUtf8);
    const yaml = await agent.request('/api/resources/apply?dryRun=true', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body,
    });
    expect(yaml.status).toBe(400);
    expect(await yaml.json()).toEqual({ error: 'the body is not valid UTF-8', code: 'invalid_request' });
    const tunneled = await hub.request('POST', `/c/${clusterId}/api/resources/apply?dryRun=true`, {
      as: { cookie: viewer },
      headers: json,
      body,
    });
    expect(tunneled.status, tunneled.body).toBe(400);
    expect(tunneled.json()).toEqual(notUtf8);
  });
});
