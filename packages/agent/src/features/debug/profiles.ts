import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { getHeapSnapshot } from 'node:v8';
import { AppError } from '@binnacle/common/server';

/** One timed capture at a time: two would profile each other, and each costs the agent CPU. */
let capturing: string | undefined;

async function capture<T>(what: string, take: () => Promise<T>): Promise<T> {
  if (capturing) throw new AppError('conflict', `${capturing} is being taken; try again when it is done`);
  capturing = what;
  try {
    return await take();
  } finally {
    capturing = undefined;
  }
}

const wait = (seconds: number) => new Promise((done) => setTimeout(done, seconds * 1000));

/** Runs `during` on an inspector session of this process, disconnected afterwards. */
async function withSession<T>(during: (session: Session) => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    return await during(session);
  } finally {
    session.disconnect();
  }
}

/** A V8 heap snapshot, streamed as it is written (open it in Chrome DevTools → Memory). */
export function heapSnapshot(): Readable {
  return getHeapSnapshot();
}

/** A CPU profile of the next `seconds` (a .cpuprofile for DevTools → Performance). */
export function cpuProfile(seconds: number): Promise<object> {
  return capture('a CPU profile', () =>
    withSession(async (session) => {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      await wait(seconds);
      return (await session.post('Profiler.stop')).profile;
    }),
  );
}

/**
 * The allocations of the next `seconds`, sampled every 32 KiB with their stacks (a .heapprofile for DevTools →
 * Memory → Load): what allocates, where a heap snapshot shows what is kept.
 */
export function allocationProfile(seconds: number): Promise<object> {
  return capture('an allocation profile', () =>
    withSession(async (session) => {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024 });
      await wait(seconds);
      return (await session.post('HeapProfiler.stopSampling')).profile;
    }),
  );
}

/**
 * The trace events of the next `seconds` — V8, Node's async work and its event loop — in the Trace Event format
 * (open in https://ui.perfetto.dev or chrome://tracing).
 */
export function traceEvents(seconds: number): Promise<{ traceEvents: object[] }> {
  return capture('a trace', () =>
    withSession(async (session) => {
      const events: object[] = [];
      session.on('NodeTracing.dataCollected', (message) => {
        events.push(...(message.params.value as object[]));
      });
      const complete = new Promise((done) => session.once('NodeTracing.tracingComplete', done));
      await session.post('NodeTracing.start', {
        traceConfig: { includedCategories: ['v8', 'node', 'node.async_hooks', 'node.perf'] },
      });
      await wait(seconds);
      await session.post('NodeTracing.stop');
      await complete;
      return { traceEvents: events };
    }),
  );
}

const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;

/**
 * How long the event loop was held up over the next `seconds` (Node's counterpart of Go's blocking profile): the
 * delay histogram in milliseconds and the share of the time the loop was busy.
 */
export function eventLoopBlocking(seconds: number) {
  return capture('an event-loop measure', async () => {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    const before = performance.eventLoopUtilization();
    histogram.enable();
    await wait(seconds);
    histogram.disable();
    const busy = performance.eventLoopUtilization(before);
    return {
      seconds,
      delayMs: {
        min: ms(histogram.min),
        mean: ms(histogram.mean),
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      },
      utilization: Math.round(busy.utilization * 1000) / 1000,
    };
  });
}

/** A flag value that must not leave the process: `--cluster-token=…`, `--metricsdb-headers …`. */
export type SecretFlags = ReadonlySet<string>;

/** The command line with the values of secret flags replaced, in both `--flag=value` and `--flag value` forms. */
export function redactedArgv(argv: readonly string[], secret: SecretFlags): string[] {
  return argv.map((arg, i) => {
    const [flag, value] = arg.split(/=(.*)/s, 2);
    if (value !== undefined && flag?.startsWith('--') && secret.has(flag.slice(2)))
      return `${flag}=<redacted>`;
    const previous = argv[i - 1];
    if (previous?.startsWith('--') && !previous.includes('=') && secret.has(previous.slice(2)))
      return '<redacted>';
    return arg;
  });
}

/**
 * What the process is doing now (Node's counterpart of Go's goroutine dump): the JavaScript stack, the libuv
 * handles (sockets, timers, watchers), worker threads and resource use, from a diagnostic report without the
 * environment (it holds credentials) and with secret flags redacted.
 */
export function processReport(secret: SecretFlags) {
  const report = process.report.getReport() as {
    header: Record<string, unknown> & { commandLine?: string[] };
    environmentVariables?: unknown;
    [part: string]: unknown;
  };
  delete report.environmentVariables;
  report.header.commandLine = redactedArgv(report.header.commandLine ?? [], secret);
  return report;
}
