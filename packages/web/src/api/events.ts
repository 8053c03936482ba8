import { apiUrl } from './client.ts';
import type { paths } from './generated/agent-api.ts';
import { fill } from './typed-client.ts';

export type StreamState = 'connecting' | 'open' | 'reconnecting';

/** The agent's routes that answer Server-Sent Events to `method` (`get`; helm's actions: `post`). */
export type StreamPathOf<M extends 'get' | 'post'> = {
  [P in keyof paths]: paths[P] extends {
    [K in M]: { responses: { 200: { content: { 'text/event-stream': unknown } } } };
  }
    ? P
    : never;
}[keyof paths];

/** The agent's GET routes that answer Server-Sent Events (EventSource's). */
export type StreamPath = StreamPathOf<'get'>;

type Decoded<E> = E extends { event: infer N; data: infer D } ? { event: N; data: D } : never;

/** One event of a stream as the route documents it: its name and its data, JSON-decoded. */
export type StreamEvent<P extends StreamPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'text/event-stream': infer E } } } };
}
  ? Decoded<E>
  : never;

/** The events of a stream a page listens to, by name. */
export type StreamEventOf<P extends StreamPath, N extends string> = Extract<StreamEvent<P>, { event: N }>;

/**
 * An SSE subscription that reconnects with backoff (1 s doubling to 30 s) and resumes from the last event id
 * the server sent, so no change is missed across a drop. `after` (an `<epoch>:<seq>` event id) starts it after
 * what the page already loaded, so nothing recorded between that load and the stream's start is lost either.
 * Only the `types` named are listened to; each reaches `onEvent` typed by the route's document. Returns the
 * function that closes it.
 */
export function subscribe<P extends StreamPath, const N extends StreamEvent<P>['event'] & string>(
  path: P,
  options: { params?: Record<string, string>; query: Record<string, string | undefined> },
  handlers: { onEvent: (event: StreamEventOf<P, N>) => void; onState?: (state: StreamState) => void },
  types: readonly N[],
  after?: string,
): () => void {
  let source: EventSource | undefined;
  let lastEventId = after;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const open = () => {
    handlers.onState?.(attempt === 0 ? 'connecting' : 'reconnecting');
    source = new EventSource(apiUrl(fill(path, options.params), { ...options.query, lastEventId }), {
      withCredentials: true,
    });
    source.onopen = () => {
      attempt = 0;
      handlers.onState?.('open');
    };
    for (const type of types) {
      source.addEventListener(type, (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        // The route's document says what each event's data is (ADR 0082).
        handlers.onEvent({ event: type, data: JSON.parse(message.data) } as StreamEventOf<P, N>);
      });
    }
    source.onerror = () => {
      source?.close();
      if (closed) return;
      handlers.onState?.('reconnecting');
      timer = setTimeout(open, Math.min(30_000, 1000 * 2 ** attempt++));
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(timer);
    source?.close();
  };
}
