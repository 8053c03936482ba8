import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  type StandInAgent,
  type StandInAnswer,
  startStandInAgent,
  startTestHub,
  type TestHub,
} from '../../testing/index.ts';

/**
 * Issue 37 #10: a percent-encoded cluster id (`/c/%61bc…/api/health`) reached the agent at the wrong path,
 * since the hub cut the raw URL at the length of the decoded id. Sent over real HTTP, byte for byte, so no
 * client normalizes the path first.
 */
let agent: StandInAgent;
let t: TestHub;
let dialer: { close(): Promise<void> };
let cookie: string;
let clusterId: string;
let port: number;

beforeAll(async () => {
  agent = await startStandInAgent();
  t = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
  await t.hub.listen();
  port = (t.hub.app.server.address() as AddressInfo).port;
  cookie = (await t.signInBreakGlass()).cookie;
  const cluster = (
    await t.request('POST', '/api/clusters', { as: { cookie }, body: { name: 'edge' } })
  ).json<{
    id: string;
    token: string;
  }>();
  clusterId = cluster.id;
  dialer = await agent.connect(t, cluster.id, cluster.token);
});
afterAll(async () => {
  await dialer?.close();
  await t?.close();
  await agent?.close();
});

/** A GET with the path exactly as written. */
function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, headers: { cookie: `${t.cookieName}=${cookie}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The id with its first character percent-encoded: the same cluster, written another way. */
const encodedId = () => `%${(clusterId.codePointAt(0) as number).toString(16)}${clusterId.slice(1)}`;

describe('the cluster id and the agent path of /c/<id>/…', () => {
  it('decodes the id once and forwards the rest as written', async () => {
    for (const path of [`/c/${clusterId}/api/health`, `/c/${encodedId()}/api/health`]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect((answer.body as unknown as StandInAnswer).path).toBe('/api/health');
    }
    const escaped = await get(`/c/${encodedId()}/api/pods/demo/a%20b/logs?grep=%2F..`);
    expect((escaped.body as unknown as StandInAnswer).path).toBe('/api/pods/demo/a%20b/logs?grep=%2F..');
  });

  it('refuses an encoded "/" and "." or ".." segments with 400, never reaching the agent', async () => {
    for (const path of [
      `/c/${clusterId}%2F..%2Fother/api/health`,
      `/c/${clusterId}/api/resources/pods/demo/a%2Fb`,
      `/c/${clusterId}/api/../../api/health`,
      `/c/${clusterId}/api/%2e%2e/health`,
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_request',
        error: expect.stringContaining('ambiguous'),
      });
    }
  });

  it('reads WebSocket upgrades the same way', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/c/${clusterId}%2F../api/exec`, {
        headers: { cookie: `${t.cookieName}=${cookie}`, origin: t.origin },
      });
      ws.on('unexpected-response', (request, response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      ws.on('open', () => reject(new Error('the upgrade was accepted')));
      ws.on('error', reject);
    });
    expect(status).toBe(400);
  });
});
