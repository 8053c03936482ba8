import { once } from 'node:events';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type TypedApp } from './app.ts';
import { serverLogger } from './logger.ts';
import { registerMcpEndpoint } from './mcp-endpoint.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await createApp({
    logger: serverLogger('silent'),
    openapi: { title: 'test', version: '0', description: 'test' },
  });
  registerMcpEndpoint(app as TypedApp, {
    url: '/mcp',
    summary: 'test',
    config: {},
    serverFor: () => {
      const server = new McpServer({ name: 'test', version: '0' });
      server.registerTool('ping', { description: 'answers pong' }, () => ({
        content: [{ type: 'text', text: 'pong' }],
      }));
      return Promise.resolve(server.server);
    },
  });
  await app.ready();
});
afterAll(() => app?.close());

const accept = 'application/json, text/event-stream';
const post = (body: unknown, headers: Record<string, string> = {}): InjectOptions => ({
  method: 'POST',
  url: '/mcp',
  headers: { 'content-type': 'application/json', accept, ...headers },
  payload: JSON.stringify(body),
});
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('the MCP endpoint', () => {
  it('answers JSON-RPC as JSON, and a notification with 202', async () => {
    const answer = await app.inject(post(initialize));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'test' } } });
    const tools = await app.inject(post(listTools));
    expect(tools.json()).toMatchObject({ id: 2, result: { tools: [{ name: 'ping' }] } });
    const note = await app.inject(post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(note.statusCode).toBe(202);
    expect(note.body).toBe('');
  });

  it('answers a request served over HTTP/2, whose headers include pseudo-headers (the hub tunnel, ADR 0111)', async () => {
    // Handed over as the tunnel's agent end does: the compatibility request emitted on the app's own server.
    const server = http2.createServer((request, response) => app.server.emit('request', request, response));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/mcp',
        'content-type': 'application/json',
        accept,
      });
      stream.end(JSON.stringify(initialize));
      const [head] = (await once(stream, 'response')) as [Record<string, unknown>];
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      await once(stream, 'end');
      expect(head[':status']).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ id: 1, result: { serverInfo: { name: 'test' } } });
    } finally {
      session.close();
      server.close();
    }
  });

  // Each refusal of the SDK's transport used to leave as a JSON-RPC error body without `code`.
  const refusals: [string, InjectOptions, number, string][] = [
    ['no Accept header', post(initialize, { accept: '' }), 406, 'not_acceptable'],
    [
      'an Accept header without text/event-stream',
      post(initialize, { accept: 'application/json' }),
      406,
      'not_acceptable',
    ],
    ['a body that is no JSON-RPC message', post({ hello: 'world' }), 400, 'invalid_request'],
    [
      'a batch of more messages than allowed',
      post(Array.from({ length: 101 }, () => listTools)),
      400,
      'invalid_request',
    ],
    [
      'a protocol version it does not speak',
      post(listTools, { 'mcp-protocol-version': '1999-01-01' }),
      400,
      'invalid_request',
    ],
    [
      'a body type it does not read',
      { ...post(initialize), headers: { 'content-type': 'text/plain', accept } },
      415,
      'unsupported_media_type',
    ],
  ];

  it.each(refusals)('refuses %s with {error, code}', async (_label, request, status, code) => {
    const answer = await app.inject(request);
    expect(answer.statusCode).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = answer.json();
    expect(body).toEqual({ error: expect.any(String), code });
    expect(body.error.length).toBeGreaterThan(10);
  });

  it('answers GET and DELETE 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const answer = await app.inject({ method, url: '/mcp' });
      expect(answer.statusCode).toBe(405);
      expect(answer.headers.allow).toBe('POST');
      expect(answer.json()).toMatchObject({ code: 'method_not_allowed' });
    }
  });
});
