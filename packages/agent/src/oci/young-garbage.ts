import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Frees the chunks a layer stream leaves behind as it goes, instead of letting them pile up.
 *
 * Every chunk of a layer is a fresh Buffer whose bytes live outside V8's heap: the socket's reads of a
 * download, the cache file's reads, the decompressor's output. They die at once (the tar reader skips file
 * contents), but V8 learns of them only through its external-memory counter and, for a cold process, starts
 * collecting only once some 64 MB of them have accumulated (its external allocation soft limit); the
 * young-generation collections that would free them come far too rarely, since a chunk of 16-64 KiB costs
 * the JS heap a few hundred bytes. So an agent's first large layer grew its RSS by 60-90 MB (the malloc'ed
 * chunks), whatever the image's size. Reusing buffers cannot avoid it: undici, fs streams and zlib each
 * allocate their own chunks.
 *
 * Hence one young-generation collection (a scavenge: about a millisecond with a small young generation)
 * after every `everyBytes` of chunks passed, process-wide: dead chunks are freed while still young, the
 * garbage stays under ~2 × `everyBytes` (a counted decompressed chunk comes with its compressed input), and
 * the major collections the external-memory limit forced (one every ~100 ms) no longer happen. Measured on a
 * 520 MiB layer from a cold agent (images-memory.int.test.ts): RSS +60 to +88 MB in 9-17 s before, +21 to
 * +34 MB in 5-8 s with it; a scavenge here takes about a millisecond, some 130 of them per 520 MiB.
 *
 * V8 offers no collection without `--expose-gc`, which the agent cannot count on being started with; the
 * flag is set for one new context to obtain `gc` (a `vm` context gets it), then cleared. Where that fails,
 * nothing is collected early and memory behaves as before.
 */
const everyBytes = 8 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

let collect: Collect | null | undefined;
let pending = 0;

function collector(): Collect | null {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Notes `bytes` of stream chunks done with; collects the young generation every `everyBytes` of them. */
export function chunkDone(bytes: number): void {
  pending += bytes;
  if (pending < everyBytes) return;
  pending = 0;
  collect ??= collector();
  collect?.({ type: 'minor' });
}

/** `source`'s chunks, each counted by `chunkDone` as it arrives. */
export async function* collecting(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    chunkDone(chunk.length);
    yield chunk;
  }
}
