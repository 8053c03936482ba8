import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from './digest.ts';
import {
  blobStream,
  fetchBlob,
  fetchManifest,
  isIndex,
  listCatalog,
  listTags,
  manifestTypes,
  maxDocumentBytes,
} from './distribution.ts';
import { RegistryClient } from './registry-client.ts';

/**
 * The distribution API's reads against a loopback server playing an anonymous registry that serves what it
 * is told to, tampered bytes included: the rules on digests and sizes are the client's, whatever the registry.
 */
const manifest = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: manifestTypes[0], layers: [] }));
const index = Buffer.from(JSON.stringify({ schemaVersion: 2, manifests: [] }));
const blob = Buffer.from('the config');
const other = sha256(Buffer.from('other bytes'));
/** `chunked`: sent without a content-length, so only counting the bytes finds the size. */
const routes = new Map<string, { body: Buffer; headers?: Record<string, string>; chunked?: boolean }>([
  ['/v2/app/manifests/1', { body: manifest }],
  [`/v2/app/manifests/${sha256(manifest)}`, { body: manifest }],
  [`/v2/app/manifests/${other}`, { body: manifest }],
  ['/v2/app/manifests/multi', { body: index, headers: { 'content-type': 'application/json' } }],
  ['/v2/app/manifests/huge', { body: Buffer.alloc(maxDocumentBytes + 1, 0x20), chunked: true }],
  [`/v2/app/blobs/${sha256(blob)}`, { body: blob }],
  [`/v2/app/blobs/${other}`, { body: blob }],
  [
    '/v2/_catalog?n=1000',
    {
      body: Buffer.from('{"repositories":["a","b"]}'),
      headers: { link: '</v2/_catalog?last=b&n=1000>; rel="next"' },
    },
  ],
  ['/v2/_catalog?last=b&n=1000', { body: Buffer.from('{"repositories":["c"]}') }],
  ['/v2/app/tags/list?n=10000', { body: Buffer.from('{"name":"app","tags":["1","2"]}') }],
]);
let server: Server;
let client: RegistryClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (!route) return res.writeHead(404).end();
    res.writeHead(200, route.headers);
    if (route.chunked) res.write(route.body);
    res.end(route.chunked ? undefined : route.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  client = new RegistryClient(`127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => server.close());

describe('manifests', () => {
  it('answers a manifest by tag with the digest of its bytes, and one by digest when its bytes match', async () => {
    const byTag = await fetchManifest(client, 'app', '1', manifestTypes);
    expect(byTag).toMatchObject({ digest: sha256(manifest), mediaType: manifestTypes[0] });
    expect(isIndex(byTag)).toBe(false);
    expect((await fetchManifest(client, 'app', sha256(manifest), manifestTypes)).digest).toBe(
      sha256(manifest),
    );
    await expect(fetchManifest(client, 'app', other, manifestTypes)).rejects.toMatchObject({
      code: 'registry_error',
      message: expect.stringContaining(`the bytes do not match ${other}`),
    });
  });

  it('tells an index by its list of manifests when no media type says so', async () => {
    const multi = await fetchManifest(client, 'app', 'multi', manifestTypes);
    expect(multi.mediaType).toBe('application/json');
    expect(isIndex(multi)).toBe(true);
  });

  it('refuses a manifest above 4 MiB, and answers 404 for one the registry does not have', async () => {
    await expect(fetchManifest(client, 'app', 'huge', manifestTypes)).rejects.toThrow('larger than 4 MiB');
    await expect(fetchManifest(client, 'app', 'nope', manifestTypes)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('blobs', () => {
  it('answers a blob whose bytes match its digest, within its bound', async () => {
    expect(await fetchBlob(client, 'app', { digest: sha256(blob) }, 1024)).toEqual(blob);
  });

  it("refuses a blob larger than its bound, by the manifest's size before asking and by its bytes after", async () => {
    const digest = sha256(blob);
    await expect(fetchBlob(client, 'app', { digest, size: 2048 }, 1024)).rejects.toThrow(
      'larger than 1024 bytes',
    );
    await expect(fetchBlob(client, 'app', { digest }, 4)).rejects.toThrow('larger than 4 bytes');
  });

  it('refuses bytes that do not match the digest, whole or streamed', async () => {
    await expect(fetchBlob(client, 'app', { digest: other }, 1024)).rejects.toThrow(
      `the bytes do not match ${other}`,
    );
    await expect(text(await blobStream(client, 'app', other, 'layer 1'))).rejects.toThrow(
      `layer 1: the bytes do not match ${other}`,
    );
    expect(await text(await blobStream(client, 'app', sha256(blob), 'config'))).toBe('the config');
  });
});

describe('listings', () => {
  it('reads the catalog page by page as its links lead, and the tags of a repository', async () => {
    expect(await listCatalog(client)).toEqual(['a', 'b', 'c']);
    expect(await listTags(client, 'app')).toEqual(['1', '2']);
  });
});
