import { request as httpRequest } from 'node:http';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { type HubProcess, spawnHub } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Answers the HTTP layer gives before any route runs keep the conventions on both real servers (docs/architecture.md §4):
 * `{error, code}`, `Cache-Control: no-store`, and no input reflected back in full.
 */
let agent: TestAgent;
let hub: HubProcess;

beforeAll(async () => {
  [agent, hub] = await Promise.all([startTestAgent(), spawnHub()]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), hub?.stop()]);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request (GET unless told) with the given extra headers; node's client sends heads of any size and any method
 * token, so the server's limit and parser are what is met.
 */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () =>
      req.destroy(new Error(`${method} ${path.slice(0, 60)} got no answer in 10 s`)),
    );
    req.end();
  });
}

describe.each(['agent', 'hub'])('the %s', (name) => {
  const base = () => (name === 'agent' ? agent.url : hub.url);

  it('answers a request head over the limit with 431 headers_too_large in our shape', async () => {
    const res = await get(base(), '/api/health', { 'x-big': 'a'.repeat(20_000) });
    expect(res.status).toBe(431);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), code: 'headers_too_large' });
  });

  it('answers a 5 KB path without repeating it', async () => {
    const path = `/api/${'segment/'.repeat(640)}`;
    const res = await get(base(), path);
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(res.body) as { error: string; code: string };
    expect(body.code).toBe('route_not_found');
    expect(body.error).toMatch(/^no route for GET \/api\/segment\/.*… \(5125 characters\)$/);
    expect(res.body.length).toBeLessThan(250);
  });

  it('answers a method the path does not take 405 with Allow, a QUERY without Content-Type too', async () => {
    for (const method of ['QUERY', 'PROPFIND', 'DELETE']) {
      const res = await get(base(), '/api/health', {}, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET, HEAD');
      expect(JSON.parse(res.body), method).toEqual({ error: expect.any(String), code: 'method_not_allowed' });
    }
    const unknownPath = await get(base(), '/api/no-such-route', {}, 'QUERY');
    expect(unknownPath.status).toBe(404);
    expect(JSON.parse(unknownPath.body)).toMatchObject({ code: 'route_not_found' });
  });

  it('answers a method no server knows 501 method_not_implemented on every path', async () => {
    for (const path of ['/api/health', '/api/no-such-route']) {
      const res = await get(base(), path, {}, 'FOO');
      expect(res.status, path).toBe(501);
      expect(res.headers['cache-control'], path).toBe('no-store');
      expect(JSON.parse(res.body), path).toEqual({
        error: expect.any(String),
        code: 'method_not_implemented',
      });
    }
  });

  it('answers a path segment over 253 characters with 414 uri_too_long, not repeating it', async () => {
    const segment = 'x'.repeat(5000);
    const res = await get(
      base(),
      name === 'agent' ? `/api/resources/pods/default/${segment}` : `/api/orgs/${segment}`,
    );
    expect(res.status).toBe(414);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), code: 'uri_too_long' });
    expect(res.body).not.toContain(segment.slice(0, 300));
  });
});
