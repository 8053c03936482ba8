import { request } from 'node:http';
import type { TestAgent } from './test-agent.ts';

/**
 * A request to an agent from a given local address (e.g. 127.0.0.2), as an authenticating proxy in front of it
 * would send one, with a JSON body when one is given; resolves with the status and the parsed JSON body.
 */
export function sendFrom(
  agent: TestAgent,
  path: string,
  headers: Record<string, string>,
  localAddress: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(path, agent.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method,
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        localAddress,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
