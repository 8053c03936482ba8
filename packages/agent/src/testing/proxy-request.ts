import { request } from 'node:http';
import type { TestAgent } from './test-agent.ts';

/** A request body: a value sent as JSON, or text sent as it is with its media type. */
export type SentBody = { json: unknown } | { text: string; type: string };

/**
 * A request to an agent (in this process or its own) from a given local address (e.g. 127.0.0.2), as an
 * authenticating proxy in front of it would send one; resolves with the status and the parsed JSON body.
 */
export function sendFrom(
  agent: Pick<TestAgent, 'url'>,
  path: string,
  headers: Record<string, string>,
  localAddress: string,
  method = 'GET',
  body?: SentBody,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(path, agent.url);
  const payload = body && ('json' in body ? JSON.stringify(body.json) : body.text);
  const type = body && ('json' in body ? 'application/json' : body.type);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method,
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: type === undefined ? headers : { ...headers, 'content-type': type },
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
