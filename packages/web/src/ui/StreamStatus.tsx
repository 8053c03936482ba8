import type { StreamState } from '../api/events.ts';

/** How a live view names the state of its stream (every stream reconnects by itself: `api/events.ts`). */
export const streamWords: Record<StreamState, string> = {
  open: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
};

/** Whether a view follows its stream right now, as a dot beside the words: green while live, amber while not. */
export function StreamDot({ state }: { state: StreamState }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block h-2 w-2 shrink-0 rounded-full ${state === 'open' ? 'animate-pulse bg-emerald-500' : 'bg-amber-500'}`}
    />
  );
}
