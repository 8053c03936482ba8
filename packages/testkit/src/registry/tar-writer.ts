/** One member of a layer the tests build: a file (content), a directory, or a link. */
export interface LayerEntry {
  path: string;
  type?: 'file' | 'directory' | 'symlink' | 'hardlink';
  content?: string | Buffer;
  mode?: number;
  linkTarget?: string;
}

const block = 512;
const typeFlags = { file: '0', hardlink: '1', symlink: '2', directory: '5' } as const;

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** A PAX extended header record (`<length> <key>=<value>\n`, the length counting itself). */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return `${length}${body}`;
}

function header(name: string, type: string, size: number, mode: number, linkTarget = ''): Buffer {
  const out = Buffer.alloc(block);
  out.write(name, 0, 100, 'utf8');
  out.write(octal(mode, 8), 100, 'ascii');
  out.write(octal(0, 8), 108, 'ascii');
  out.write(octal(0, 8), 116, 'ascii');
  out.write(octal(size, 12), 124, 'ascii');
  out.write(octal(0, 12), 136, 'ascii');
  out.write(type, 156, 'ascii');
  out.write(linkTarget, 157, 100, 'utf8');
  out.write('ustar\0', 257, 'ascii');
  out.write('00', 263, 'ascii');
  out.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of out) sum += byte;
  out.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return out;
}

export const tarPadding = (size: number) => Buffer.alloc((block - (size % block)) % block);

/** The end of an archive: two zero blocks. */
export const tarEnd = () => Buffer.alloc(block * 2);

/**
 * The header blocks of one member, as Go's archive/tar writes them: ustar, with a PAX header first when the
 * name or link target is longer than the ustar fields hold.
 */
export function tarHeader(entry: LayerEntry, size: number): Buffer {
  const type = entry.type ?? 'file';
  const name = type === 'directory' && !entry.path.endsWith('/') ? `${entry.path}/` : entry.path;
  const linkTarget = entry.linkTarget ?? '';
  const mode = entry.mode ?? (type === 'directory' ? 0o755 : 0o644);
  const records = [
    ...(Buffer.byteLength(name) > 100 ? [paxRecord('path', name)] : []),
    ...(Buffer.byteLength(linkTarget) > 100 ? [paxRecord('linkpath', linkTarget)] : []),
  ].join('');
  const main = header(name.slice(0, 100), typeFlags[type], size, mode, linkTarget.slice(0, 100));
  if (!records) return main;
  const pax = Buffer.from(records);
  return Buffer.concat([header('PaxHeaders/x', 'x', pax.length, 0o644), pax, tarPadding(pax.length), main]);
}

/** A whole (small) tar archive in memory. */
export function tarArchive(entries: LayerEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content =
      entry.type === undefined || entry.type === 'file' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0);
    parts.push(tarHeader(entry, content.length), content, tarPadding(content.length));
  }
  parts.push(tarEnd());
  return Buffer.concat(parts);
}
