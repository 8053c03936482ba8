import type { KubeObject } from '@binnacle/common';
import type { StreamEventsOf } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import type { SseStream } from '../../http/sse.ts';
import { SseFanout } from '../../http/sse-fanout.ts';
import type { LogLine } from './lines.ts';
import type { LogsContext } from './module.ts';
import { type LogOptions, openPodLog, type PodLogStream } from './pod-log.ts';
import type { logStreamEvents } from './schemas.ts';

export const logLimits = {
  /** Concurrent log streams (single-pod and workload) before 503 too_many_streams. */
  maxStreams: 100,
  /** Pods one workload stream follows at once; more are named in a `warning` event. */
  maxPods: 20,
  /** Lines queued for a slow reader before upstreams are paused, and before the stream is closed. */
  pauseAt: 500,
  maxQueued: 5000,
  /** A log stream ends after this long, whatever happens (the client reconnects). */
  maxDurationMs: 12 * 3_600_000,
};

export interface PodTarget {
  pod: KubeObject;
  container: string;
}

type StreamOptions = Omit<LogOptions, 'container'> & { timestamps: boolean };

const key = (pod: string, container: string) => `${pod}/${container}`;

type LogStreamEvents = StreamEventsOf<typeof logStreamEvents>;

/** The open log streams, single-pod and workload together: one cap, one session kind. */
export type LogStreams = SseFanout<LogStreamEvents, LogSession>;

export const logStreams = (ctx: LogsContext): LogStreams =>
  new SseFanout(ctx.sessions, {
    label: 'log streaming',
    max: logLimits.maxStreams,
    kind: 'logs',
    maxQueued: logLimits.maxQueued,
    pauseAt: logLimits.pauseAt,
    maxDurationMs: logLimits.maxDurationMs,
  });

/**
 * One SSE log session: it follows any number of pod containers, labels every line with its pod and container,
 * and when the reader falls behind it pauses the API server streams instead of buffering without bound.
 */
export class LogSession {
  readonly #ctx: LogsContext;
  readonly stream: SseStream<LogStreamEvents>;
  readonly #namespace: string;
  readonly #options: StreamOptions;
  readonly #upstreams = new Map<string, PodLogStream>();
  readonly #stopped = new Set<string>();
  #paused = false;

  constructor(
    ctx: LogsContext,
    stream: SseStream<LogStreamEvents>,
    namespace: string,
    options: StreamOptions,
  ) {
    this.#ctx = ctx;
    this.stream = stream;
    this.#namespace = namespace;
    this.#options = options;
    stream.onBacklog((behind) => {
      this.#paused = behind;
      for (const upstream of this.#upstreams.values()) {
        if (behind) upstream.pause();
        else upstream.resume();
      }
    });
    stream.onClose(() => {
      for (const upstream of this.#upstreams.values()) upstream.stop();
      this.#upstreams.clear();
    });
  }

  get closed(): boolean {
    return this.stream.closed;
  }

  send<Name extends keyof LogStreamEvents & string>(event: Name, data: LogStreamEvents[Name]): void {
    this.stream.send(event, data);
  }

  following(pod: string): boolean {
    return [...this.#upstreams.keys()].some((k) => k.startsWith(`${pod}/`));
  }

  #line(pod: string, container: string, line: LogLine): void {
    this.stream.send('log', {
      pod,
      container,
      ...(this.#options.timestamps ? { timestamp: line.timestamp } : {}),
      line: line.line,
    });
  }

  /**
   * Starts following one container; when its stream ends while the pod still runs (a container restart, an API
   * server restart) it resumes from the last line's time.
   */
  async follow(target: PodTarget, options: Partial<StreamOptions> = {}): Promise<void> {
    const pod = target.pod.metadata?.name ?? '';
    if (this.#upstreams.has(key(pod, target.container)) || this.closed) return;
    const opened = await openUpstream(this.#ctx, this.#namespace, target, { ...this.#options, ...options });
    this.adopt(target, opened);
  }

  /** Takes over a stream opened before the session (its early lines were held) and keeps it going. */
  adopt(target: PodTarget, opened: OpenedUpstream): void {
    const pod = target.pod.metadata?.name ?? '';
    const id = key(pod, target.container);
    const { upstream } = opened;
    if (this.closed || this.#upstreams.has(id)) {
      upstream.stop();
      return;
    }
    opened.deliver((line) => this.#line(pod, target.container, line));
    this.#upstreams.set(id, upstream);
    if (this.#paused) upstream.pause();
    void upstream.ended.then(() => {
      if (this.#upstreams.get(id) !== upstream) return;
      this.#upstreams.delete(id);
      if (this.closed || this.#stopped.has(id) || !this.#options.follow) return this.#maybeEnd();
      const current = this.#ctx.cluster.cache
        .peek(this.#ctx.cluster.find('', 'Pod'))
        .find((p) => p.metadata?.namespace === this.#namespace && p.metadata?.name === pod);
      if (!current || current.metadata?.deletionTimestamp) return this.#maybeEnd();
      setTimeout(() => {
        this.follow(
          { pod: current, container: target.container },
          { tail: undefined, sinceSeconds: undefined, sinceTime: opened.lastTimestamp() },
        ).catch(() => this.#maybeEnd());
      }, 1000).unref();
    });
  }

  /** Stops following a pod (it was deleted). */
  unfollow(pod: string): void {
    for (const [id, upstream] of this.#upstreams) {
      if (id.startsWith(`${pod}/`)) {
        this.#stopped.add(id);
        this.#upstreams.delete(id);
        upstream.stop();
      }
    }
  }

  /** A single-pod stream ends with its pod; a workload stream keeps waiting for new pods. */
  endWhenIdle = false;
  #maybeEnd(): void {
    if (this.endWhenIdle && this.#upstreams.size === 0) this.stream.finish('the log stream ended');
  }
}

export interface OpenedUpstream {
  upstream: PodLogStream;
  /** Hands the held lines, and every later one, to the session. */
  deliver(to: (line: LogLine) => void): void;
  lastTimestamp(): string | undefined;
}

/** Opens a container's log stream, holding its lines until a session takes them. */
export async function openUpstream(
  ctx: LogsContext,
  namespace: string,
  target: PodTarget,
  options: Omit<LogOptions, 'container'>,
): Promise<OpenedUpstream> {
  const held: LogLine[] = [];
  let to: ((line: LogLine) => void) | undefined;
  let last: string | undefined;
  const upstream = await openPodLog(
    ctx,
    namespace,
    target.pod.metadata?.name ?? '',
    { ...options, container: target.container },
    (line) => {
      last = line.timestamp ?? last;
      if (to) to(line);
      else held.push(line);
    },
  );
  return {
    upstream,
    deliver(next) {
      to = next;
      for (const line of held.splice(0)) next(line);
    },
    lastTimestamp: () => last,
  };
}

/**
 * A single container's log over SSE. The API server stream is opened before the SSE response starts, so a
 * refused request (no such container, RBAC, a container still starting) is a plain HTTP error.
 */
export async function streamPodLog(
  ctx: LogsContext,
  reply: FastifyReply,
  streams: LogStreams,
  namespace: string,
  target: PodTarget,
  options: StreamOptions,
): Promise<void> {
  const name = target.pod.metadata?.name ?? '';
  const opened = await openUpstream(ctx, namespace, target, options);
  let session: LogSession;
  try {
    session = streams.open(
      reply,
      `${namespace}/${name}/${target.container}`,
      (stream) => new LogSession(ctx, stream, namespace, options),
    );
  } catch (error) {
    opened.upstream.stop();
    throw error;
  }
  session.endWhenIdle = true;
  session.send('connected', { namespace, pods: [name], containers: [target.container] });
  session.adopt(target, opened);
}
