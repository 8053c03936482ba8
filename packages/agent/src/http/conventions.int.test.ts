import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../testing/index.ts';

let agent: TestAgent;
interface Operation {
  tags?: string[];
  parameters?: { in: string; name: string }[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
let document: { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  agent = await startTestAgent();
  document = await agent.json('/api/openapi.json');
});
afterAll(async () => {
  await agent?.close();
});

const sampleValues: Record<string, string> = { kind: 'pods', namespace: 'default', name: 'binnacle-probe' };
const methods = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation the OpenAPI document lists, with its path parameters filled in. */
function operations(): {
  method: string;
  path: string;
  template: string;
  tags: string[];
  operation: Operation;
}[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((method) => methods.includes(method))
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        tags: item[method]?.tags ?? [],
        operation: item[method] ?? {},
        path: template.replace(/\{(\w+)\}/g, (_, param: string) =>
          encodeURIComponent(sampleValues[param] ?? 'x'),
        ),
      })),
  );
}

/** The media types the document declares for an answer of this status (`200`, else `2XX`). */
function declaredTypes(operation: Operation, status: number): string[] {
  const responses = operation.responses ?? {};
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
  return Object.keys(response?.content ?? {});
}

/** Asserts the answer's media type is one the document declares for its status. */
function expectDeclared(res: Response, operation: Operation, label: string): void {
  const mediaType = res.headers.get('content-type')?.split(';')[0];
  expect(declaredTypes(operation, res.status), `${label} answered ${res.status} ${mediaType}`).toContain(
    mediaType,
  );
}

describe('conventions on every route of /api/openapi.json', () => {
  it('lists the routes of the agent', () => {
    expect(operations().length).toBeGreaterThanOrEqual(20);
  });

  it('refuses an unknown query parameter with 400 {error, code}, as declared, and Cache-Control: no-store', async () => {
    for (const op of operations()) {
      const init: RequestInit = { method: op.method };
      if (op.method === 'PUT' || op.method === 'POST') {
        init.headers = { 'content-type': 'application/json' };
        init.body = '{}';
      }
      const res = await agent.request(`${op.path}?binnacle_unknown_parameter=1`, init);
      const label = `${op.method} ${op.template}`;
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      expect(res.headers.get('cache-control'), label).toBe('no-store');
      expectDeclared(res, op.operation, label);
      const body = (await res.json()) as Record<string, unknown>;
      expect(typeof body.error, label).toBe('string');
      expect(typeof body.code, label).toBe('string');
    }
  });

  it('answers every parameterless GET with Cache-Control: no-store and a declared media type, streams included', async () => {
    // Debug routes take profiles for seconds; the unknown-parameter test above covers their headers.
    const gets = operations().filter(
      (o) => o.method === 'GET' && !o.template.includes('{') && !o.tags.includes('debug'),
    );
    for (const op of gets) {
      const abort = new AbortController();
      const res = await agent.request(op.path, { signal: abort.signal });
      expect(res.headers.get('cache-control'), op.path).toBe('no-store');
      expect(res.status, op.path).toBeLessThan(500);
      expectDeclared(res, op.operation, op.path);
      // Streams never end: the headers are what this test is about.
      abort.abort();
    }
  });

  it('answers /api/diagnostics in each format with a media type the document declares', async () => {
    const operation = document.paths['/api/diagnostics']?.get ?? {};
    for (const format of ['json', 'markdown']) {
      const res = await agent.request(`/api/diagnostics?format=${format}`);
      expect(res.status).toBe(200);
      expectDeclared(res, operation, `format=${format}`);
    }
  });

  it('answers an unknown route with 404 route_not_found and no-store', async () => {
    const res = await agent.request('/api/not-a-route');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ error: 'no route for GET /api/not-a-route', code: 'route_not_found' });
  });

  it('answers a known path with an undeclared method 405 method_not_allowed, listing the methods in Allow', async () => {
    const res = await agent.request('/api/settings', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PUT');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      error: 'DELETE is not allowed on /api/settings; use GET, HEAD, PUT',
      code: 'method_not_allowed',
    });
  });

  it('answers a wrong content type with 415 and a body that is too large with 413', async () => {
    const wrongType = await agent.request('/api/resources/apply', {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: 'x',
    });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { code: string }).code).toBe('unsupported_media_type');
    const huge = await agent.request('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ theme: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: 'request body is too large', code: 'payload_too_large' });
  });
});
