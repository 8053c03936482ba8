/** The most of a file shown in place; the whole file is a download away. */
export const previewBytes = 256 * 1024;

/** A file's first part as read: text when it decodes as UTF-8 and holds no NUL, else binary. */
export type FileHead =
  | { kind: 'text'; text: string; truncated: boolean }
  | { kind: 'binary'; truncated: boolean; bytes: number };

/** Text when the bytes are UTF-8 without NUL; a character cut at the end of a truncated read is not an error. */
export function decodeHead(bytes: Uint8Array, truncated: boolean): FileHead {
  if (bytes.includes(0)) return { kind: 'binary', truncated, bytes: bytes.length };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
    return { kind: 'text', text, truncated };
  } catch {
    return { kind: 'binary', truncated, bytes: bytes.length };
  }
}
