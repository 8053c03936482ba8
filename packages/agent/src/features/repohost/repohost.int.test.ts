import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { projectRepository } from './service.ts';

/**
 * The "star the project" prompt against a local server implementing the code host's two endpoints (GitHub's
 * `PUT` and `GET /user/starred/{owner}/{repo}`): a token it knows stars, any other is refused as GitHub does.
 * The agent runs behind an authenticating proxy (`--auth-mode proxy`), so each person has an answer of their own.
 */
const goodToken = 'ghp_binnacleTestToken0123456789abcdef';
const starredBy = new Set<string>();
const seenTokens: string[] = [];
let codeHost: Server;
let codeHostUrl: string;
let agent: TestAgent;
let dataDir: string;
const lines: string[] = [];

beforeAll(async () => {
  codeHost = createServer((request, response) => {
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    seenTokens.push(token);
    const json = (status: number, body?: unknown) => {
      response.writeHead(status, body ? { 'content-type': 'application/json' } : {});
      response.end(body ? JSON.stringify(body) : undefined);
    };
    if (request.url !== `/user/starred/${projectRepository}`) return json(404, { message: 'Not Found' });
    if (token !== goodToken) return json(401, { message: 'Bad credentials' });
    if (request.method === 'PUT') {
      starredBy.add(token);
      return json(204);
    }
    return json(starredBy.has(token) ? 204 : 404);
  });
  codeHost.listen(0, '127.0.0.1');
  await once(codeHost, 'listening');
  codeHostUrl = `http://127.0.0.1:${(codeHost.address() as AddressInfo).port}`;
  // The agent's data lives beyond one agent process (the restart below).
  dataDir = await mkdtemp(join(tmpdir(), 'binnacle-repohost-'));
  agent = await startAgent({ dataDir });
});

afterAll(async () => {
  await agent?.close();
  codeHost?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function startAgent(config: { dataDir?: string }) {
  return startTestAgent({
    start: false,
    config: {
      ...config,
      repohostApiUrl: codeHostUrl,
      authMode: 'proxy',
      authProxyAddresses: '127.0.0.1',
      debugEvents: true,
    },
    log: serverLogger('trace', { write: (line: string) => void lines.push(line) }),
  });
}

async function call(person: string, path: string, body?: unknown) {
  const response = await agent.request(`/api/repohost/${path}`, {
    method: path === 'starred' ? 'GET' : 'POST',
    headers: {
      'x-forwarded-user': person,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('the star prompt', () => {
  it('asks until the person stars, with their own token, which is used for the star and kept nowhere', async () => {
    expect((await call('ada', 'starred')).json).toEqual({
      repository: projectRepository,
      url: `https://github.com/${projectRepository}`,
      starred: false,
      dismissed: false,
      prompt: true,
    });
    const refused = await call('ada', 'star', { token: 'ghp_wrong' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'invalid_request',
      error: expect.stringContaining('Bad credentials'),
    });
    expect((await call('ada', 'starred')).json).toMatchObject({ starred: false, prompt: true });

    const starred = await call('ada', 'star', { token: goodToken });
    expect(starred.status, JSON.stringify(starred.json)).toBe(200);
    expect(starred.json).toMatchObject({ starred: true, prompt: false });
    expect(starredBy.has(goodToken)).toBe(true);
    expect(seenTokens).toContain(goodToken);
    expect(lines.join('\n')).not.toContain(goodToken);
    expect(lines.join('\n')).not.toContain('ghp_wrong');
    // Another person is still asked.
    expect((await call('bob', 'starred')).json).toMatchObject({ starred: false, prompt: true });
  });

  it('stops asking after a dismissal, and remembers both answers across a restart', async () => {
    expect((await call('bob', 'dismiss')).json).toMatchObject({ dismissed: true, prompt: false });
    await agent.close();
    agent = await startAgent({ dataDir });
    expect((await call('bob', 'starred')).json).toMatchObject({
      dismissed: true,
      starred: false,
      prompt: false,
    });
    expect((await call('ada', 'starred')).json).toMatchObject({ starred: true, prompt: false });
  });

  it('refuses a missing or malformed token with 400, and a code host that cannot be reached with 502', async () => {
    for (const body of [{}, { token: '' }, { token: 'has spaces in it' }, { token: goodToken, extra: 1 }]) {
      const answer = await call('carol', 'star', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.code).toBe('invalid_request');
    }
    codeHost.close();
    codeHost.closeAllConnections();
    await once(codeHost, 'close');
    const unreachable = await call('carol', 'star', { token: goodToken });
    expect(unreachable.status).toBe(502);
    expect(unreachable.json).toMatchObject({
      code: 'repohost_error',
      error: expect.stringContaining(codeHostUrl),
    });
    expect((await call('carol', 'starred')).json).toMatchObject({ starred: false, prompt: true });
  });
});
