import { useEffect, useState } from 'react';
import { type StreamState, subscribe } from '../../api/events.ts';
import { applyDelta, type FlowPair, type SourceName } from './flows.ts';

/** What the flow stream said last: nothing yet, the window's pairs, or why there are none. */
export type FlowView =
  | { state: 'waiting' }
  | {
      state: 'flows';
      source: SourceName;
      windowMs: number;
      pairs: FlowPair[];
      /** The source's stream broke or a read failed: the agent tries again, the pairs shown may be stale. */
      trouble?: string;
    }
  | { state: 'absent'; reason: string };

/**
 * The caller's flow pairs of the window, live: the stream's snapshot, then its deltas. A dropped connection is
 * opened again (with backoff) and starts over from a fresh snapshot; so does a new value of `restart`.
 */
export function useFlowStream(
  namespace: string | undefined,
  since: string,
  restart: number,
): { view: FlowView; connection: StreamState } {
  const [view, setView] = useState<FlowView>({ state: 'waiting' });
  const [connection, setConnection] = useState<StreamState>('connecting');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `restart` only asks for a new stream.
  useEffect(() => {
    setView({ state: 'waiting' });
    return subscribe(
      '/api/traffic/flows/stream',
      { query: { namespace, since } },
      {
        onState: setConnection,
        onEvent: (event) =>
          setView((was) => {
            if (event.event === 'snapshot') return { state: 'flows', ...event.data };
            if (event.event === 'unavailable') return { state: 'absent', reason: event.data.reason };
            if (was.state !== 'flows') return was;
            // A delta means the source answers again: what went wrong before is over.
            if (event.event === 'delta')
              return { ...was, pairs: applyDelta(was.pairs, event.data), trouble: undefined };
            return { ...was, trouble: event.data.reason };
          }),
      },
      ['snapshot', 'delta', 'unavailable', 'error'],
    );
  }, [namespace, since, restart]);
  return { view, connection };
}
