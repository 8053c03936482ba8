/** Longest saved name in UTF-8 bytes: file systems allow 255, and " (9999)" must still fit. */
export const maxNameBytes = 200;

const fallbackName = 'download';
// Windows refuses these names with any extension (CON.txt too), whatever the case.
const windowsReserved = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
// Controls, and the characters Windows, macOS or Linux reserve in a name (separators are cut before).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const unsafe = /[\u0000-\u001f\u007f<>:"|?*]/g;

/** A name's stem and extension ("report.tar.gz" → "report.tar" and ".gz"); a leading dot starts no extension. */
export function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** Cuts a string to at most `bytes` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, bytes: number): string {
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > bytes) break;
    out += char;
  }
  return out;
}

/**
 * A name a browser-supplied file name may be saved under on any desktop: the last path segment only, controls
 * and reserved characters replaced by "_", no leading dots (no hidden files), no trailing dots or spaces
 * (Windows drops them), no reserved device name, at most `maxNameBytes` with the extension kept.
 */
export function safeFileName(given: string): string {
  const base = given.normalize('NFC').split(/[/\\]/).pop() ?? '';
  let name = base
    .replace(unsafe, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (name === '') return fallbackName;
  // Windows reads the part before the first dot: "CON.tar.gz" is the console too.
  if (windowsReserved.test((name.split('.')[0] ?? '').trim())) name = `_${name}`;
  // An "extension" of half the budget is no extension: the whole name is cut instead.
  let [stem, extension] = splitExtension(name);
  if (Buffer.byteLength(extension) > maxNameBytes / 2) [stem, extension] = [name, ''];
  stem = cutToBytes(stem, maxNameBytes - Buffer.byteLength(extension)).replace(/[.\s]+$/, '');
  return `${stem || fallbackName}${extension}`;
}

/** The n-th name tried when `name` is taken: "report (1).pdf", "report (2).pdf", … */
export function numberedName(name: string, n: number): string {
  if (n === 0) return name;
  const [stem, extension] = splitExtension(name);
  return `${stem} (${n})${extension}`;
}
