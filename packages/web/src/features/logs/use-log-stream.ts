import { useEffect, useRef, useState } from 'react';
import { type StreamState, subscribe } from '../../api/events.ts';

export interface LogLine {
  pod: string;
  container: string;
  timestamp?: string;
  line: string;
}

/** Lines kept in the page; older ones scroll away (the download has what is kept). */
const kept = 5000;

/**
 * The log of a pod's container, or of every pod of a workload (following them across rollouts), streamed from
 * the agent. Paused, lines still arrive and are kept; they show when the reader resumes.
 */
export function useLogStream(source: { path: string; container?: string; tail: number }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [state, setState] = useState<StreamState | 'ended'>('connecting');
  const [notice, setNotice] = useState<string>();
  const buffer = useRef<LogLine[]>([]);
  useEffect(() => {
    buffer.current = [];
    setLines([]);
    setNotice(undefined);
    let flush: ReturnType<typeof setTimeout> | undefined;
    const close = subscribe(
      source.path,
      { container: source.container, tail: String(source.tail) },
      {
        onState: setState,
        onEvent: (type, data) => {
          if (type === 'end') {
            close();
            setState('ended');
            setNotice(
              `The stream ended: ${(data as { reason?: string }).reason ?? 'the container stopped'}.`,
            );
            return;
          }
          if (type === 'warning' || type === 'error') {
            setNotice((data as { message?: string }).message);
            return;
          }
          buffer.current.push(data as LogLine);
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
  }, [source.path, source.container, source.tail]);
  return { lines, state, notice };
}
