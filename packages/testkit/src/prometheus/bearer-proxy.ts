import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Requests refused for a missing or wrong token. */
  refused: number;
  close(): Promise<void>;
}

/**
 * A loopback reverse proxy in front of a store that answers 401 unless `Authorization: Bearer <token>` is sent:
 * the network boundary a store behind an authenticating gateway presents (Prometheus itself has no auth).
 */
export async function startBearerProxy(target: string, token: string): Promise<BearerProxy> {
  const upstream = new URL(target);
  const state = { refused: 0 };
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      state.refused += 1;
      res
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('unauthorized\n');
      return;
    }
    const out = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
