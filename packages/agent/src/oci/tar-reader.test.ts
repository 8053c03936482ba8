import { Readable } from 'node:stream';
import { tarArchive } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { cleanPath, type TarEntry, TarReader } from './tar-reader.ts';

/** The archive split into chunks of `size` bytes, so headers and contents straddle chunk boundaries. */
const chunked = (bytes: Buffer, size: number) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
      bytes.subarray(i * size, (i + 1) * size),
    ),
  );

async function entries(reader: TarReader): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  for (let entry = await reader.next(); entry; entry = await reader.next()) out.push(entry);
  return out;
}

const longName = `opt/${'deep/'.repeat(30)}file.txt`;
const archive = tarArchive([
  { path: 'etc', type: 'directory' },
  { path: './etc/hostname', content: 'box\n', mode: 0o600 },
  { path: 'bin/sh', type: 'symlink', linkTarget: '/bin/busybox' },
  { path: 'bin/busybox', content: 'x'.repeat(1500), mode: 0o755 },
  { path: 'bin/ash', type: 'hardlink', linkTarget: 'bin/busybox' },
  { path: longName, content: 'long' },
]);

describe('TarReader', () => {
  it.each([7, 512, 100_000])('reads every member, chunks of %i bytes', async (size) => {
    const list = await entries(new TarReader(chunked(archive, size)));
    expect(list).toEqual([
      { path: 'etc', type: 'directory', size: 0, mode: 0o755 },
      { path: 'etc/hostname', type: 'file', size: 4, mode: 0o600 },
      { path: 'bin/sh', type: 'symlink', size: 0, mode: 0o644, linkTarget: '/bin/busybox' },
      { path: 'bin/busybox', type: 'file', size: 1500, mode: 0o755 },
      { path: 'bin/ash', type: 'hardlink', size: 0, mode: 0o644, linkTarget: 'bin/busybox' },
      { path: longName, type: 'file', size: 4, mode: 0o644 },
    ]);
  });

  it("streams one member's content and then goes on with the next", async () => {
    const reader = new TarReader(chunked(archive, 100));
    let entry = await reader.next();
    while (entry && entry.path !== 'bin/busybox') entry = await reader.next();
    const parts: Buffer[] = [];
    for await (const chunk of reader.content()) parts.push(chunk);
    expect(Buffer.concat(parts).toString()).toBe('x'.repeat(1500));
    expect((await reader.next())?.path).toBe('bin/ash');
  });

  it('refuses bytes that are no tar, and an archive cut short', async () => {
    await expect(entries(new TarReader(Readable.from([Buffer.alloc(512, 'a')])))).rejects.toThrow('checksum');
    await expect(entries(new TarReader(Readable.from([archive.subarray(0, 1800)])))).rejects.toThrow('ends');
  });

  it('stops at its bound on the bytes read, and at an extended header above 1 MiB', async () => {
    await expect(entries(new TarReader(chunked(archive, 512), { maxBytes: 2048 }))).rejects.toThrow(
      'larger than',
    );
    expect(await entries(new TarReader(chunked(archive, 512), { maxBytes: archive.length }))).toHaveLength(6);
    // The PAX header of the long name, made to claim 2 MiB of records (its checksum made right again).
    const start = archive.indexOf('PaxHeaders/');
    const pax = Buffer.from(archive.subarray(start));
    pax.write(`${(2 << 20).toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    pax.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of pax.subarray(0, 512)) sum += byte;
    pax.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    expect(pax.subarray(156, 157).toString()).toBe('x');
    await expect(entries(new TarReader(chunked(pax, 512)))).rejects.toThrow('extended header');
  });

  it('cleans paths without climbing above the root', () => {
    expect(cleanPath('./usr//bin/../lib/')).toBe('usr/lib');
    expect(cleanPath('../../etc/passwd')).toBe('etc/passwd');
    expect(cleanPath('/')).toBe('');
  });
});
