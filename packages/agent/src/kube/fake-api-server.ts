import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { KubeClient } from './client.ts';
import type { ClusterTarget } from './kubeconfig.ts';

export type FakeHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** For tests only: a cluster at `server` without credentials, trusting `ca` when given. */
export function testTarget(server: URL, ca?: string): ClusterTarget {
  return {
    source: 'kubeconfig',
    kubeconfigFiles: [],
    contextName: 'test',
    clusterName: 'test',
    server,
    authMethod: 'none',
    tls: { rejectUnauthorized: true, ...(ca && { ca: Buffer.from(ca) }) },
    authHeaders: () => Promise.resolve({}),
    contexts: [],
  };
}

/**
 * For tests only: an API server on loopback that answers what the handler says, for failures the real one
 * cannot be made to produce on demand (an expired watch, an unavailable APIService). Close it after the test.
 */
export async function fakeApiServer(
  handler: FakeHandler,
): Promise<{ client: KubeClient; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => handler(req, res, new URL(req.url ?? '/', 'http://x')));
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    client: new KubeClient(testTarget(new URL(`http://127.0.0.1:${port}`))),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolveClose) => server.close(resolveClose));
    },
  };
}
