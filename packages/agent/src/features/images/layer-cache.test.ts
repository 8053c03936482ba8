import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifying } from '../../oci/digest.ts';
import { LayerCache } from './layer-cache.ts';

const blob = (content: string) => ({
  content,
  digest: `sha256:${createHash('sha256').update(content).digest('hex')}`,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-layer-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LayerCache', () => {
  it('fetches a blob once, then serves it from disk', async () => {
    const cache = new LayerCache(dir, 100);
    const a = blob('a'.repeat(40));
    let fetches = 0;
    const fetch = () => {
      fetches += 1;
      return Promise.resolve(Readable.from([Buffer.from(a.content)]));
    };
    const [first, second] = await Promise.all([
      cache.open(a.digest, 40, fetch, 'a'),
      cache.open(a.digest, 40, fetch, 'a'),
    ]);
    expect(await text(first)).toBe(a.content);
    expect(await text(second)).toBe(a.content);
    expect(await text(await cache.open(a.digest, 40, fetch, 'a'))).toBe(a.content);
    expect(fetches).toBe(1);
    expect(await cache.has(a.digest)).toBe(true);
  });

  it('stays within its bound by removing the least recently used blobs', async () => {
    const cache = new LayerCache(dir, 100);
    const [a, b, c] = [blob('a'.repeat(40)), blob('b'.repeat(40)), blob('c'.repeat(40))];
    const put = async (x: { content: string; digest: string }) =>
      text(
        await cache.open(x.digest, 40, () => Promise.resolve(Readable.from([Buffer.from(x.content)])), 'x'),
      );
    await put(a);
    await put(b);
    await put(a); // a is now more recent than b
    await put(c);
    expect([await cache.has(a.digest), await cache.has(b.digest), await cache.has(c.digest)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(cache.bytes).toBe(80);
    // A new cache over the same directory finds what is there.
    expect(await new LayerCache(dir, 100).has(c.digest)).toBe(true);
  });

  it('keeps nothing of a blob whose bytes do not match its digest', async () => {
    const cache = new LayerCache(dir, 100);
    const a = blob('expected');
    const tampered = () =>
      Promise.resolve(Readable.from([Buffer.from('tampered')]).pipe(verifying(a.digest, 'layer 1')));
    await expect(cache.open(a.digest, 8, tampered, 'layer 1')).rejects.toThrow(
      `layer 1: the bytes do not match ${a.digest}`,
    );
    expect(await readdir(join(dir, 'sha256'))).toEqual([]);
  });

  it('streams a blob larger than the whole cache without keeping it', async () => {
    const cache = new LayerCache(dir, 10);
    const a = blob('z'.repeat(50));
    const stream = await cache.open(
      a.digest,
      50,
      () => Promise.resolve(Readable.from([Buffer.from(a.content)])),
      'big',
    );
    expect(await text(stream)).toBe(a.content);
    expect(await cache.has(a.digest)).toBe(false);
  });
});
