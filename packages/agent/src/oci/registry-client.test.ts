import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { AppError } from '@binnacle/common/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChallenge } from './challenge.ts';
import { RegistryClient } from './registry-client.ts';

/**
 * The token flow of the distribution spec against a loopback server playing registry and token service:
 * 401 with a Bearer challenge, a token for the scope (asked with Basic credentials), the retry with it; and a
 * second origin playing blob storage that a registry redirects to.
 */
let server: Server;
let storage: Server;
let host: string;
let storageHost: string;
const storageRequests: (string | undefined)[] = [];
const tokenRequests: { scope: string | null; authorization?: string }[] = [];
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/token') {
      tokenRequests.push({ scope: url.searchParams.get('scope'), authorization: req.headers.authorization });
      const anonymous = !req.headers.authorization;
      if (!anonymous && req.headers.authorization !== basic('robot', 'secret'))
        return res.writeHead(401).end();
      return res.end(JSON.stringify({ token: anonymous ? 'anonymous-token' : 'robot-token' }));
    }
    const wanted = url.pathname.includes('/private/') ? 'Bearer robot-token' : 'Bearer anonymous-token';
    if (req.headers.authorization !== wanted) {
      res.setHeader(
        'www-authenticate',
        `Bearer realm="http://${host}/token",service="test",scope="repository:${url.pathname.split('/')[2]}:pull"`,
      );
      return res.writeHead(401).end();
    }
    if (url.pathname.endsWith('/blobs/elsewhere'))
      return res.writeHead(307, { location: `http://${storageHost}/signed?sig=1` }).end();
    res.end('manifest');
  });
  storage = createServer((req, res) => {
    storageRequests.push(req.headers.authorization);
    res.end('blob bytes');
  });
  server.listen(0, '127.0.0.1');
  storage.listen(0, '127.0.0.1');
  await Promise.all([once(server, 'listening'), once(storage, 'listening')]);
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  storageHost = `127.0.0.1:${(storage.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  storage.close();
});

describe('RegistryClient', () => {
  it('asks the realm for an anonymous token of the scope, then retries with it', async () => {
    const client = new RegistryClient(host);
    expect(await text((await client.get('/v2/public/manifests/1', '*/*')).body)).toBe('manifest');
    expect(client.authMethod).toBe('bearer');
    expect(tokenRequests.at(-1)).toEqual({ scope: 'repository:public:pull', authorization: undefined });
  });

  it('sends the credentials to the token service only, and names the secret when they are refused', async () => {
    const good = new RegistryClient(host, { username: 'robot', password: 'secret', source: 'ns/regcred' });
    expect((await good.get('/v2/private/manifests/1', '*/*')).status).toBe(200);
    expect(tokenRequests.at(-1)?.authorization).toBe(basic('robot', 'secret'));
    const bad = new RegistryClient(host, { username: 'robot', password: 'nope', source: 'ns/wrong' });
    const error = await bad.get('/v2/private/manifests/1', '*/*').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'registry_unauthorized',
      message: `the registry ${host} refused the credentials of pull secret ns/wrong`,
    });
    expect(JSON.stringify((error as AppError).toBody())).not.toContain('nope');
  });

  it('follows a redirect to blob storage on another origin without the credentials', async () => {
    const client = new RegistryClient(host, { username: 'robot', password: 'secret', source: 'ns/regcred' });
    const response = await client.get('/v2/private/blobs/elsewhere', '*/*');
    expect(await text(response.body)).toBe('blob bytes');
    expect(storageRequests).toEqual([undefined]);
  });

  it('parses challenges with quoted and bare parameters', () => {
    expect(
      parseChallenge('Bearer realm="https://auth.example/token",service=registry,scope="a:b:pull,push"'),
    ).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.example/token', service: 'registry', scope: 'a:b:pull,push' },
    });
  });
});
