import { StringDecoder } from 'node:string_decoder';
import { Received } from './recorder.ts';

export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
  /** When the test process parsed it (performance.now()). */
  receivedAt: number;
}

export interface SseClient {
  status: number;
  events: SseEvent[];
  /** Resolves with the first event (already received or still to come) that matches; rejects after `timeoutMs`. */
  next(match: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** True once the server ended the stream or the connection broke. */
  ended(): boolean;
  close(): void;
}

/**
 * Reads a Server-Sent Events endpoint the way a browser's EventSource does (frames of `id:`, `event:`,
 * `data:` lines), keeping every event so tests wait on the stream instead of sleeping.
 */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const received = new Received<SseEvent>((events) => events.map((e) => e.event).join(', '));
  const push = (event: SseEvent) => received.push(event);
  let ended = !res.body;
  if (res.body) {
    void (async () => {
      const decoder = new StringDecoder('utf8');
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.write(Buffer.from(chunk));
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields: Record<string, string> = {};
            for (const line of frame.split('\n')) {
              const colon = line.indexOf(':');
              if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
            }
            if (fields.event || fields.data) {
              push({
                event: fields.event ?? 'message',
                id: fields.id,
                data: fields.data ? JSON.parse(fields.data) : undefined,
                receivedAt: performance.now(),
              });
            }
          }
        }
      } catch {
        // Closed by the test or the server.
      }
      ended = true;
    })();
  }
  return {
    status: res.status,
    events: received.items,
    next: (match, timeoutMs = 20_000) => received.next(match, timeoutMs),
    ended: () => ended,
    close: () => abort.abort(),
  };
}
