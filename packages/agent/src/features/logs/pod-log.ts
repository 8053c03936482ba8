import type { Readable } from 'node:stream';
import type { Impersonation } from '../../kube/client.ts';
import { LineSplitter, type LogLine, parseTimestamped } from './lines.ts';
import type { LogsContext } from './module.ts';

export interface LogOptions {
  container: string;
  follow: boolean;
  /** Last N lines (Kubernetes tailLines). */
  tail?: number;
  /** Only lines newer than this many seconds. */
  sinceSeconds?: number;
  /** Only lines newer than this time (used to resume without repeats). */
  sinceTime?: string;
  previous?: boolean;
  /** Stop after this many bytes (quick reads). */
  limitBytes?: number;
  as?: Impersonation;
}

export interface PodLogStream {
  /** Ends the upstream request. */
  stop(): void;
  pause(): void;
  resume(): void;
  /** Resolves when the upstream ended (pod gone, container restarted, stop()). */
  ended: Promise<void>;
}

/**
 * Streams one container's log from the API server, line by line, with timestamps parsed off. The upstream is a
 * plain HTTP stream, so pause() applies real backpressure down to the API server.
 */
export async function openPodLog(
  ctx: LogsContext,
  namespace: string,
  pod: string,
  options: LogOptions,
  onLine: (line: LogLine) => void,
): Promise<PodLogStream> {
  const abort = new AbortController();
  const { body } = await ctx.cluster.client.stream({
    path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`,
    query: {
      container: options.container,
      follow: options.follow,
      timestamps: true,
      tailLines: options.tail,
      sinceSeconds: options.sinceSeconds,
      sinceTime: options.sinceTime,
      previous: options.previous,
      limitBytes: options.limitBytes,
    },
    as: options.as,
    signal: abort.signal,
    accept: '*/*',
  });
  const splitter = new LineSplitter();
  const ended = new Promise<void>((resolveEnd) => {
    const finish = () => {
      splitter.end((text) => onLine(parseTimestamped(text)));
      resolveEnd();
    };
    (body as Readable).on('data', (chunk: Buffer) =>
      splitter.push(chunk, (text) => onLine(parseTimestamped(text))),
    );
    (body as Readable).on('end', finish);
    (body as Readable).on('error', finish);
    (body as Readable).on('close', finish);
  });
  return {
    stop: () => {
      abort.abort();
      (body as Readable).destroy();
    },
    pause: () => (body as Readable).pause(),
    resume: () => (body as Readable).resume(),
    ended,
  };
}
