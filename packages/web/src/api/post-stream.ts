import { apiUrl } from './client.ts';
import type { StreamPathOf } from './events.ts';
import type { paths } from './generated/agent-api.ts';
import { splitSseData } from './sse-frames.ts';
import { answer, fill } from './typed-client.ts';

/** The agent's POST routes that answer a stream of Server-Sent Events (helm's install, upgrade, rollback). */
export type StreamPath = StreamPathOf<'post'>;

/** One `data:` frame of a stream route, JSON-decoded, as its document describes it (ADR 0107). */
export type StreamFrame<P extends StreamPath> = paths[P] extends {
  post: { responses: { 200: { content: { 'text/event-stream': { data: infer F } } } } };
}
  ? F
  : never;

/** The JSON body a stream route takes. */
export type StreamBody<P extends StreamPath> = paths[P] extends {
  post: { requestBody: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/**
 * POSTs to a route that answers Server-Sent Events and hands every `data:` frame, parsed as JSON, to `onFrame`
 * as it arrives (EventSource cannot POST). Resolves when the server ends the stream. A refusal before the
 * stream opens is the server's `{error, code}` as an ApiError; aborting `signal` closes the stream, which the
 * agent takes as the caller going away.
 */
export async function postStream<P extends StreamPath>(
  path: P,
  options: { params?: Record<string, string>; body: StreamBody<P>; signal?: AbortSignal },
  onFrame: (frame: StreamFrame<P>) => void,
): Promise<void> {
  const response = await fetch(apiUrl(fill(path, options.params)), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok || !response.body) {
    await answer(response);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    const { data, rest } = splitSseData(done ? `${buffer}\n\n` : buffer + value);
    buffer = rest;
    for (const frame of data) onFrame(JSON.parse(frame) as StreamFrame<P>);
    if (done) return;
  }
}
