import { randomBytes } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { AppsV1Api, CoreV1Api, Exec, PortForward, type V1Pod, type V1Status } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCluster } from '../test-cluster.ts';
import { waitUntil } from './wait.ts';

const cluster = testCluster();
const kc = cluster.kubeConfig('admin');
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);

let namespace: { name: string; remove: () => Promise<void> };
let pods: V1Pod[] = [];

function podName(): string {
  const name = pods[0]?.metadata?.name;
  if (!name) throw new Error('no pod');
  return name;
}

/** Serves a local port whose connections are port-forwarded to `remotePort` of the pod. */
async function forwardLocally(remotePort: number): Promise<{ port: number; server: Server }> {
  const forward = new PortForward(kc);
  const server = createServer((socket) => {
    forward
      .portForward(namespace.name, podName(), [remotePort], socket, null, socket)
      .catch(() => socket.destroy());
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, server };
}

/** Writes `payload` and collects the answer until `complete` says it is all there. */
function exchange(
  port: number,
  payload: Buffer | string,
  complete: (answer: Buffer) => boolean,
): Promise<Buffer> {
  return new Promise((resolveExchange, reject) => {
    const socket = new Socket();
    let answer = Buffer.alloc(0);
    socket.setTimeout(15_000, () =>
      socket.destroy(new Error(`incomplete answer after 15s (${answer.length} bytes)`)),
    );
    socket.on('data', (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      if (complete(answer)) socket.end();
    });
    socket.on('close', () => resolveExchange(answer));
    socket.on('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(payload));
  });
}

beforeAll(async () => {
  namespace = await cluster.namespace('workloads');
  await apps.createNamespacedDeployment({
    namespace: namespace.name,
    body: {
      metadata: { name: 'echo' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'echo' } },
        template: {
          metadata: { labels: { app: 'echo' } },
          spec: { containers: [{ name: 'main', image: 'nginx:1.27.3', ports: [{ containerPort: 8080 }] }] },
        },
      },
    },
  });
  await waitUntil(
    'two Running pods of the echo Deployment',
    async () => {
      const list = await core.listNamespacedPod({ namespace: namespace.name, labelSelector: 'app=echo' });
      pods = list.items.filter((pod) => pod.status?.phase === 'Running');
      return pods.length === 2;
    },
    { timeoutMs: 60_000 },
  );
});

afterAll(async () => {
  await namespace?.remove();
});

describe('a Deployment on the local control plane', () => {
  it('runs its pods on simulated nodes with pod IPs', () => {
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.spec?.nodeName).toMatch(/^kwok-node-\d+$/);
      expect(pod.status?.podIP).toMatch(/^10\.244\./);
      expect(pod.status?.containerStatuses?.[0]?.ready).toBe(true);
    }
  });

  it('serves the logs of a pod', async () => {
    const log = await core.readNamespacedPodLog({
      namespace: namespace.name,
      name: podName(),
      container: 'main',
      tailLines: 5,
    });
    const lines = log.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.every((line) => line.startsWith('level='))).toBe(true);
  });

  it('runs a command in the pod (exec) and returns its output and status', async () => {
    const stdout = new PassThrough();
    let output = '';
    stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const status = await new Promise<V1Status>((resolveStatus, reject) => {
      new Exec(kc)
        .exec(namespace.name, podName(), 'main', ['echo', 'hi from exec'], stdout, null, null, false, (s) =>
          resolveStatus(s),
        )
        .catch(reject);
    });
    expect(status.status).toBe('Success');
    expect(output).toBe('hi from exec\n');
  });

  it('moves bytes both ways through a port-forward', async () => {
    const echo = await forwardLocally(9000);
    try {
      const payload = randomBytes(64 * 1024);
      const back = await exchange(echo.port, payload, (answer) => answer.length >= payload.length);
      expect(back.equals(payload)).toBe(true);
    } finally {
      echo.server.close();
    }
  });

  it('forwards pod port 8080 to the demo HTTP backend', async () => {
    const http = await forwardLocally(8080);
    try {
      const request = 'GET /from-test HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
      const answer = await exchange(http.port, request, (a) => a.toString().includes('GET /from-test\n'));
      expect(answer.toString()).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(answer.toString()).toContain('hello from the binnacle demo workload: GET /from-test');
    } finally {
      http.server.close();
    }
  });
});
