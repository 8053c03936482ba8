import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, badRequest } from '@binnacle/common/server';
import { numberedName, safeFileName } from './file-names.ts';

/** Largest file save-file writes (decoded bytes). */
export const maxSaveBytes = 64 * 1024 ** 2;
/** The body save-file accepts: the largest file in base64, plus the JSON around it. */
export const saveBodyLimit = Math.ceil(maxSaveBytes / 3) * 4 + 64 * 1024;
/** Names tried before giving up: "report (1).pdf" … "report (999).pdf". */
const maxNumbered = 1000;

export interface SavedFile {
  path: string;
  name: string;
  size: number;
}

/** Strict base64 (Buffer.from skips what it does not know); no pattern with repetition on 85 MB of text. */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text)) return false;
  const pad = text.indexOf('=');
  return pad === -1 || (pad >= text.length - 2 && /^=+$/.test(text.slice(pad)));
}

/** The bytes of save-file's `content`: 400 for base64 that is not, 413 above `maxSaveBytes`. */
export function decodeContent(content: string, encoding: 'utf8' | 'base64'): Buffer {
  if (encoding === 'base64' && !isBase64(content))
    throw badRequest('content is not valid base64 (A-Z, a-z, 0-9, +, /, padded with = to a multiple of 4)');
  const bytes = Buffer.from(content, encoding);
  if (bytes.length > maxSaveBytes)
    throw new AppError(
      'payload_too_large',
      `content is ${bytes.length} bytes; save-file writes at most ${maxSaveBytes} (64 MiB)`,
    );
  return bytes;
}

/**
 * Writes `bytes` into `dir` (created if missing) under a safe form of `filename`, numbered when the name is
 * taken. Each name is created exclusively, so two saves never write the same file, whichever comes first.
 */
export async function saveInto(dir: string, filename: string, bytes: Buffer): Promise<SavedFile> {
  await mkdir(dir, { recursive: true });
  const safe = safeFileName(filename);
  for (let n = 0; n < maxNumbered; n += 1) {
    const name = numberedName(safe, n);
    const path = join(dir, name);
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(path, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      await file.writeFile(bytes);
      await file.close();
    } catch (error) {
      await file.close().catch(() => {});
      // A half-written file is no download: it goes, and the save fails.
      await rm(path, { force: true });
      throw error;
    }
    return { path, name, size: bytes.length };
  }
  throw new AppError('conflict', `${dir} already holds ${safe} and ${maxNumbered - 1} numbered copies of it`);
}
