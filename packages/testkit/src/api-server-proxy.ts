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
  /**
   * Wedges every connection open now: no byte passes either way any more, yet both sockets stay open, as a
   * half-open connection behind a dead NAT entry or a hung peer looks. New connections pass as before. Answers
   * how many connections it froze.
   */
  freeze(): number;
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
  const pairs = new Set<[Socket, Socket]>();
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
      const pair: [Socket, Socket] = [client, api];
      pairs.add(pair);
      client.once('close', () => pairs.delete(pair));
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
  const freeze = () => {
    for (const pair of pairs) {
      const [client, api] = pair;
      client.unpipe(api);
      api.unpipe(client);
      client.pause();
      api.pause();
    }
    const frozen = pairs.size;
    // Frozen pairs are no longer forwarded; `stop` still destroys their sockets.
    pairs.clear();
    return frozen;
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
    freeze,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
