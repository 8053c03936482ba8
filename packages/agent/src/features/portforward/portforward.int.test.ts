import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { freePort, isListening, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };

interface Forward {
  id: string;
  localPort: number;
  podPort: number;
  pod: string;
  status: string;
  error?: string;
}

const post = (body: object) =>
  agent.request('/api/portforwards', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function createPod(name: string): Promise<void> {
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name, labels: { app: 'echo' } },
      spec: {
        containers: [
          {
            name: 'main',
            image: 'nginx:1.27.3',
            ports: [
              { name: 'echo', containerPort: 9000 },
              { name: 'http', containerPort: 8080 },
            ],
          },
        ],
      },
    },
  });
  await waitUntil(
    `${name} running in the cache`,
    async () => {
      const res = await agent.request(`/api/resources/pods/${ns.name}/${name}`);
      return (
        res.ok &&
        ((await res.json()) as { resource: { status: { phase?: string } } }).resource.status.phase ===
          'Running'
      );
    },
    { timeoutMs: 30_000 },
  );
}

/** Sends bytes through the local port and collects the echo. */
function roundTrip(port: number, payload: Buffer): Promise<Buffer> {
  return new Promise((resolveTrip, reject) => {
    const socket = new Socket();
    let answer = Buffer.alloc(0);
    socket.setTimeout(10_000, () =>
      socket.destroy(new Error(`only ${answer.length} of ${payload.length} bytes came back`)),
    );
    socket.on('data', (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      if (answer.length >= payload.length) socket.end();
    });
    socket.on('close', () => resolveTrip(answer));
    socket.on('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(payload));
  });
}

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('portforward')]);
  await createPod('echo-1');
  await core.createNamespacedService({
    namespace: ns.name,
    body: {
      metadata: { name: 'echo' },
      spec: { selector: { app: 'echo' }, ports: [{ name: 'web', port: 80, targetPort: 'http' }] },
    },
  });
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('port-forwards', () => {
  it('moves bytes through a forward made over the API, which disappears when deleted', async () => {
    const res = await post({ namespace: ns.name, pod: 'echo-1', port: 'echo' });
    expect(res.status).toBe(201);
    const forward = (await res.json()) as Forward;
    expect(forward).toMatchObject({ pod: 'echo-1', podPort: 9000, status: 'running' });
    const payload = randomBytes(256 * 1024);
    expect((await roundTrip(forward.localPort, payload)).equals(payload)).toBe(true);
    const listed = await agent.json<{ items: Forward[] }>('/api/portforwards');
    expect(listed.items.find((f) => f.id === forward.id)).toMatchObject({
      bytesIn: payload.length,
      bytesOut: payload.length,
    });
    expect(
      (await agent.json<{ items: { kind: string }[] }>('/api/sessions')).items.filter(
        (s) => s.kind === 'portforward',
      ),
    ).toHaveLength(1);

    const deleted = await agent.request(`/api/portforwards/${forward.id}`, { method: 'DELETE' });
    expect(((await deleted.json()) as Forward).status).toBe('stopped');
    expect((await agent.json<{ items: Forward[] }>('/api/portforwards')).items).toEqual([]);
    expect((await agent.json<{ counts: { portforward: number } }>('/api/sessions')).counts.portforward).toBe(
      0,
    );
    expect(await isListening(forward.localPort)).toBe(false);
  });

  it('forwards a service port to a ready pod, resolving named target ports', async () => {
    const forward = (await (
      await post({ namespace: ns.name, service: 'echo', port: 'web' })
    ).json()) as Forward;
    expect(forward).toMatchObject({ pod: 'echo-1', podPort: 8080 });
    const answer = await new Promise<string>((resolveAnswer) => {
      const socket = new Socket();
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('/via-service')) socket.end();
      });
      socket.on('close', () => resolveAnswer(text));
      socket.connect(forward.localPort, '127.0.0.1', () =>
        socket.write('GET /via-service HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
    });
    expect(answer).toContain('hello from the binnacle demo workload: GET /via-service');
    await agent.request(`/api/portforwards/${forward.id}`, { method: 'DELETE' });
  });

  it('ends a pod forward, closing its port, when the pod is deleted', async () => {
    await createPod('short-lived');
    const forward = (await (
      await post({ namespace: ns.name, pod: 'short-lived', port: 9000 })
    ).json()) as Forward;
    await core.deleteNamespacedPod({ namespace: ns.name, name: 'short-lived', gracePeriodSeconds: 0 });
    await waitUntil(
      'the forward to end',
      async () =>
        (await agent.json<{ items: Forward[] }>('/api/portforwards')).items.find((f) => f.id === forward.id)
          ?.status === 'error',
      { timeoutMs: 15_000 },
    );
    const ended = (await agent.json<{ items: Forward[] }>('/api/portforwards')).items.find(
      (f) => f.id === forward.id,
    );
    expect(ended?.error).toMatch(new RegExp(`pod ${ns.name}/short-lived (was deleted|is going away)`));
    expect(await isListening(forward.localPort)).toBe(false);
    expect((await agent.json<{ counts: { portforward: number } }>('/api/sessions')).counts.portforward).toBe(
      0,
    );
    await agent.request(`/api/portforwards/${forward.id}`, { method: 'DELETE' });
  });

  it('lists the ports a pod and a service offer', async () => {
    expect(await agent.json(`/api/portforwards/available/pod/${ns.name}/echo-1`)).toEqual({
      ports: [
        { port: 9000, protocol: 'TCP', name: 'echo', containerName: 'main' },
        { port: 8080, protocol: 'TCP', name: 'http', containerName: 'main' },
      ],
    });
    expect(await agent.json(`/api/portforwards/available/service/${ns.name}/echo`)).toEqual({
      ports: [{ port: 80, protocol: 'TCP', name: 'web', targetPort: 'http' }],
    });
  });

  it('answers bad input with 4xx {error, code}', async () => {
    const taken = await freePort();
    const blocker = new (await import('node:net')).Server();
    await new Promise<void>((r) => blocker.listen(taken, '127.0.0.1', r));
    try {
      const cases: [object, number, string][] = [
        [{ namespace: ns.name, pod: 'missing', port: 9000 }, 404, `pod ${ns.name}/missing not found`],
        [
          { namespace: ns.name, pod: 'echo-1', port: 'nope' },
          400,
          'pod echo-1 has no port named "nope"; it has: echo, http',
        ],
        [{ namespace: ns.name, pod: 'echo-1', port: 70000 }, 400, 'body field "port"'],
        [{ namespace: ns.name, port: 9000 }, 400, 'give either "pod" or "service"'],
        [
          { namespace: ns.name, pod: 'echo-1', service: 'echo', port: 9000 },
          400,
          'give either "pod" or "service"',
        ],
        [
          { namespace: ns.name, service: 'echo', port: 81 },
          400,
          `service ${ns.name}/echo has no port 81; it has: web`,
        ],
        [
          { namespace: ns.name, pod: 'echo-1', port: 9000, localPort: taken },
          409,
          `local port ${taken} is already in use; pick another or leave localPort out`,
        ],
      ];
      for (const [body, status, error] of cases) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(((await res.json()) as { error: string }).error, JSON.stringify(body)).toContain(error);
      }
      expect((await agent.request('/api/portforwards/not-an-id', { method: 'DELETE' })).status).toBe(404);
    } finally {
      blocker.close();
    }
  });
});
