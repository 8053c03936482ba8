import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chunkDone, collecting } from './young-garbage.ts';

describe('collecting', () => {
  it('passes the chunks through unchanged, across several collections', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(1024 * 1024, i));
    const seen: Buffer[] = [];
    for await (const chunk of collecting(Readable.from(chunks))) seen.push(chunk);
    expect(seen).toHaveLength(40);
    expect(seen.every((chunk, i) => chunk === chunks[i])).toBe(true);
  });

  it('closes its source when closed part-way', async () => {
    const source = Readable.from([Buffer.from('a'), Buffer.from('b')]);
    const iterator = collecting(source);
    expect((await iterator.next()).value).toEqual(Buffer.from('a'));
    await iterator.return(undefined);
    expect(source.destroyed).toBe(true);
  });

  it('passes the source’s error on', async () => {
    const source = new Readable({ read: () => source.destroy(new Error('broken')) });
    await expect(collecting(source).next()).rejects.toThrow('broken');
  });
});

describe('chunkDone', () => {
  it('collects without failing, once the process has counted enough bytes', () => {
    expect(() => {
      for (let i = 0; i < 20; i += 1) chunkDone(1024 * 1024);
    }).not.toThrow();
  });
});
