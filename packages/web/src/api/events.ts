import { apiUrl } from './client.ts';

export type StreamState = 'connecting' | 'open' | 'reconnecting';

/**
 * An SSE subscription that reconnects with backoff (1 s doubling to 30 s) and resumes from the last event id
 * the server sent, so no change is missed across a drop. `after` (an `<epoch>:<seq>` event id) starts it after
 * what the page already loaded, so nothing recorded between that load and the stream's start is lost either.
 * Returns the function that closes it.
 */
export function subscribe(
  path: string,
  query: Record<string, string | undefined>,
  handlers: { onEvent: (type: string, data: unknown) => void; onState?: (state: StreamState) => void },
  types: string[],
  after?: string,
): () => void {
  let source: EventSource | undefined;
  let lastEventId = after;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const open = () => {
    handlers.onState?.(attempt === 0 ? 'connecting' : 'reconnecting');
    source = new EventSource(apiUrl(path, { ...query, lastEventId }), { withCredentials: true });
    source.onopen = () => {
      attempt = 0;
      handlers.onState?.('open');
    };
    for (const type of types) {
      source.addEventListener(type, (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        handlers.onEvent(type, JSON.parse(message.data));
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
