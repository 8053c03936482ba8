import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNetwork } from './addresses.ts';
import { GuardedFetcher, OutboundFailure } from './outbound.ts';

/** A loopback server standing in for an internal service; it counts what reaches it. */
const reached: string[] = [];
const server = http.createServer((request, response) => {
  reached.push(request.url ?? '');
  if (request.url === '/redirect') return response.writeHead(302, { location: '/doc' }).end();
  if (request.url === '/secret') return response.writeHead(401).end('{"error":"no"}');
  if (request.url === '/big') return response.writeHead(200).end(`"${'x'.repeat(2048)}"`);
  if (request.url === '/text') return response.writeHead(200).end('<html>');
  if (request.url === '/slow') return; // never answers
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"issuer":"here"}');
});
let port: number;
const limits = { timeoutMs: 2_000, maxBytes: 1024 };
const guarded = new GuardedFetcher([]);
const allowing = new GuardedFetcher([parseNetwork('127.0.0.1/32')].filter((n) => n !== undefined));

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all([guarded.close(), allowing.close()]);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failure(fetcher: GuardedFetcher, url: string, within = limits): Promise<string> {
  try {
    await fetcher.getJson(new URL(url), within);
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundFailure);
    return (error as Error).message;
  }
  throw new Error(`${url} was fetched`);
}

describe('GuardedFetcher', () => {
  it.each([
    'http://127.0.0.1:PORT/doc',
    'http://localhost:PORT/doc',
    'http://[::1]:PORT/doc',
    'http://[::ffff:127.0.0.1]:PORT/doc',
    'http://0x7f.1:PORT/doc',
    'http://10.0.0.1:PORT/doc',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]:PORT/doc',
    'http://0.0.0.0:PORT/doc',
  ])('refuses %s before connecting', async (template) => {
    const before = reached.length;
    const started = Date.now();
    expect(await failure(guarded, template.replace('PORT', String(port)))).toMatch(
      /not an allowed|resolves to/,
    );
    expect(reached.length).toBe(before);
    expect(Date.now() - started).toBeLessThan(1_000); // no connection attempt to wait for
  });

  it('refuses schemes other than http and https', async () => {
    expect(await failure(allowing, 'file:///etc/passwd')).toMatch(/not http/);
    expect(await failure(allowing, `ftp://127.0.0.1:${port}/`)).toMatch(/not http/);
  });

  it('fetches from a network the operator allowed', async () => {
    expect(await allowing.getJson(new URL(`http://127.0.0.1:${port}/doc`), limits)).toEqual({
      issuer: 'here',
    });
    expect(await allowing.getJson(new URL(`http://localhost:${port}/doc`), limits)).toEqual({
      issuer: 'here',
    });
  });

  it('follows no redirect, and fails on another status, too large or not JSON an answer, and silence', async () => {
    const before = reached.length;
    expect(await failure(allowing, `http://127.0.0.1:${port}/redirect`)).toBe('answered 302');
    expect(reached.slice(before)).toEqual(['/redirect']);
    expect(await failure(allowing, `http://127.0.0.1:${port}/secret`)).toBe('answered 401');
    expect(await failure(allowing, `http://127.0.0.1:${port}/big`)).toBe('answered more than 1024 bytes');
    expect(await failure(allowing, `http://127.0.0.1:${port}/text`)).toBe(
      'answered something that is not JSON',
    );
    const started = Date.now();
    await failure(allowing, `http://127.0.0.1:${port}/slow`, { ...limits, timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
