import { apiUrl } from '../../api/client.ts';
import { answer } from '../../api/typed-client.ts';
import { decodeHead, type FileHead, previewBytes } from './decode-head.ts';

/** The image and where its credentials come from: the query every image route takes. */
export interface ImageQuery {
  image: string;
  namespace?: string;
  pod?: string;
  pullSecrets?: string;
  platform?: string;
}

/** The URL that downloads a file of the image (the agent answers it as an attachment). */
export const fileUrl = (query: ImageQuery, path: string) => apiUrl('/api/images/file', { ...query, path });

/**
 * Reads at most `previewBytes` of a file and stops the download past them, so a large binary costs what is
 * shown. A failed request throws the agent's error (404, 413, 401…) as every API call does.
 */
export async function readFileHead(query: ImageQuery, path: string, signal?: AbortSignal): Promise<FileHead> {
  const res = await fetch(fileUrl(query, path), { credentials: 'same-origin', signal });
  if (!res.ok || !res.body) return answer(res);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    if (length > previewBytes) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(length, previewBytes));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return decodeHead(bytes, truncated);
}
