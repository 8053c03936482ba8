import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClusterIdentity, testCluster } from './test-cluster.ts';

export interface ApiServerProxy {
  /** A kubeconfig of the identity whose server is the proxy: an agent started with it reaches the API server only through it. */
  kubeconfigPath: string;
  /** Stops the API server for whoever uses the proxy: the port refuses connections and every open one is cut. */
  stop(): Promise<void>;
  /** Serves again, on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the shared test API server (TLS passes through; its certificate names 127.0.0.1), so
 * one test can take the API server away from the agent it starts without stopping it for the other test files
 * running at the same time.
 */
export async function startApiServerProxy(identity: ClusterIdentity = 'admin'): Promise<ApiServerProxy> {
  const cluster = testCluster();
  const upstream = new URL(cluster.server);
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    if (server) return;
    const listening = createServer((client) => {
      const api = connect(Number(upstream.port), upstream.hostname);
      track(client);
      track(api);
      client.on('error', () => api.destroy());
      api.on('error', () => client.destroy());
      client.pipe(api).pipe(client);
    });
    listening.listen(port, '127.0.0.1');
    await once(listening, 'listening');
    port = (listening.address() as { port: number }).port;
    server = listening;
  };
  const stop = async () => {
    const listening = server;
    server = undefined;
    if (!listening) return;
    const closed = once(listening, 'close');
    listening.close();
    for (const socket of open) socket.destroy();
    await closed;
  };
  await listen();

  const kc = cluster.kubeConfig(identity);
  const current = kc.getCurrentCluster()?.name;
  kc.clusters = kc.clusters.map((c) =>
    c.name === current ? { ...c, server: `https://127.0.0.1:${port}` } : c,
  );
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-api-proxy-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeFile(kubeconfigPath, kc.exportConfig(), { mode: 0o600 });

  return {
    kubeconfigPath,
    stop,
    resume: listen,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
