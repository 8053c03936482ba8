import { ByteReader } from './byte-reader.ts';

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

/** One member of a tar archive, its path cleaned to `a/b/c` (no leading `./` or `/`, no `..` above the root). */
export interface TarEntry {
  path: string;
  type: EntryType;
  size: number;
  mode: number;
  linkTarget?: string;
}

const block = 512;
/** PAX records and GNU long names are read whole; no builder writes one near this (tar-stream allows 4 MiB). */
const maxMetadataBytes = 1 << 20;

/** Bounds of one archive: the bytes read from its (decompressed) source. */
export interface TarLimits {
  maxBytes?: number;
}

const types: Record<string, EntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '5': 'directory',
};

function text(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** A numeric field: octal text, or GNU's base-256 binary (high bit set) for sizes beyond 8 GiB. */
function numeric(header: Buffer, start: number, length: number): number {
  const raw = header.subarray(start, start + length);
  if ((raw[0] ?? 0) & 0x80) {
    let value = (raw[0] ?? 0) & 0x7f;
    for (let i = 1; i < length; i += 1) value = value * 256 + (raw[i] ?? 0);
    return value;
  }
  const digits = text(header, start, length).trim();
  return digits ? Number.parseInt(digits, 8) : 0;
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < block; i += 1) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum === numeric(header, 148, 8);
}

/** `./usr//bin/../lib/` → `usr/lib`; a `..` never climbs above the root. */
export function cleanPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/** The records of a PAX extended header (`<length> <key>=<value>\n`…). */
function paxRecords(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(offset, space).toString('ascii'), 10);
    if (!(length > 0)) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

const padding = (size: number) => (block - (size % block)) % block;

/**
 * A streaming reader of a tar archive (ustar, PAX and GNU long names, as image builders and `helm package`
 * write them): `next()` reads the next member's header, skipping whatever of the previous member's content
 * was not read; `content()` yields the current member's bytes as they arrive. Paths come cleaned, never
 * above the archive's root; errors are plain Errors for the caller to name the archive in.
 */
export class TarReader {
  readonly #bytes: ByteReader;
  #left = 0;
  #padding = 0;

  constructor(source: AsyncIterable<Buffer>, limits: TarLimits = {}) {
    this.#bytes = new ByteReader(source, limits.maxBytes);
  }

  async next(): Promise<TarEntry | undefined> {
    await this.#bytes.skip(this.#left + this.#padding);
    this.#left = 0;
    this.#padding = 0;
    let pax: Record<string, string> = {};
    let longName: string | undefined;
    let longLink: string | undefined;
    for (;;) {
      const header = await this.#bytes.read(block);
      if (!header || header.every((byte) => byte === 0)) return undefined;
      if (!checksumOk(header)) throw new Error('not a tar archive (a header checksum does not match)');
      const flag = String.fromCharCode(header[156] ?? 0);
      let size = numeric(header, 124, 12);
      if (flag === 'x' || flag === 'g' || flag === 'L' || flag === 'K') {
        if (size > maxMetadataBytes)
          throw new Error(`an extended header of ${size} bytes (more than ${maxMetadataBytes} allowed)`);
        const data = await this.#bytes.read(size + padding(size));
        const body = data?.subarray(0, size) ?? Buffer.alloc(0);
        // Global PAX headers carry archive-wide defaults image builders do not use for names; skipped.
        if (flag === 'x') pax = { ...pax, ...paxRecords(body) };
        if (flag === 'L') longName = text(body, 0, body.length);
        if (flag === 'K') longLink = text(body, 0, body.length);
        continue;
      }
      const ustar = text(header, 257, 5) === 'ustar';
      const prefix = ustar ? text(header, 345, 155) : '';
      const name =
        pax.path ?? longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
      if (pax.size !== undefined) size = Number(pax.size);
      const type = types[flag] ?? 'other';
      // Only regular files carry content; a hard link's or a device's size field says nothing to skip.
      const contentSize = type === 'file' ? size : 0;
      this.#left = contentSize;
      this.#padding = padding(contentSize);
      const linkTarget = pax.linkpath ?? longLink ?? text(header, 157, 100);
      return {
        path: cleanPath(name),
        type,
        size: contentSize,
        mode: numeric(header, 100, 8) & 0o7777,
        ...(type === 'symlink'
          ? { linkTarget }
          : type === 'hardlink'
            ? { linkTarget: cleanPath(linkTarget) }
            : {}),
      };
    }
  }

  /** The current member's content, chunk by chunk (once). */
  async *content(): AsyncGenerator<Buffer> {
    for await (const chunk of this.#bytes.chunks(this.#left)) {
      this.#left -= chunk.length;
      yield chunk;
    }
  }

  close(): Promise<void> {
    return this.#bytes.close();
  }
}
