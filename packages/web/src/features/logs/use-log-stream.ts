import { useEffect, useRef, useState } from 'react';
import { type StreamEventOf, type StreamState, subscribe } from '../../api/events.ts';

/** A pod's log, or the merged logs of a workload's pods. */
export type LogRoute =
  | { path: '/api/pods/{namespace}/{name}/logs/stream'; params: { namespace: string; name: string } }
  | {
      path: '/api/workloads/{kind}/{namespace}/{name}/logs/stream';
      params: { kind: string; namespace: string; name: string };
    };

export type LogLine = StreamEventOf<LogRoute['path'], 'log'>['data'];

/** Lines kept in the page; older ones scroll away (the download has what is kept). */
const kept = 5000;

/**
 * The log of a pod's container, or of every pod of a workload (following them across rollouts), streamed from
 * the agent. Paused, lines still arrive and are kept; they show when the reader resumes.
 */
export function useLogStream(source: { route: LogRoute; container?: string; tail: number }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [state, setState] = useState<StreamState | 'ended'>('connecting');
  const [notice, setNotice] = useState<string>();
  const buffer = useRef<LogLine[]>([]);
  const { path } = source.route;
  // By value: the page builds the route anew at each render, which must not restart the stream.
  const params = JSON.stringify(source.route.params);
  useEffect(() => {
    buffer.current = [];
    setLines([]);
    setNotice(undefined);
    let flush: ReturnType<typeof setTimeout> | undefined;
    const close = subscribe(
      path,
      {
        params: JSON.parse(params) as Record<string, string>,
        query: { container: source.container, tail: String(source.tail) },
      },
      {
        onState: setState,
        onEvent: (event) => {
          if (event.event === 'end') {
            close();
            setState('ended');
            setNotice(`The stream ended: ${event.data.reason}.`);
            return;
          }
          if (event.event === 'warning') {
            setNotice(event.data.message);
            return;
          }
          if (event.event === 'error') {
            setNotice(`${event.data.pod}/${event.data.container}: ${event.data.error}`);
            return;
          }
          buffer.current.push(event.data);
          if (buffer.current.length > kept) buffer.current.splice(0, buffer.current.length - kept);
          // Many lines arrive at once on connect: render once per frame, not once per line.
          flush ??= setTimeout(() => {
            flush = undefined;
            setLines([...buffer.current]);
          }, 50);
        },
      },
      ['log', 'end', 'warning', 'error'],
    );
    return () => {
      clearTimeout(flush);
      close();
    };
  }, [path, params, source.container, source.tail]);
  return { lines, state, notice };
}
