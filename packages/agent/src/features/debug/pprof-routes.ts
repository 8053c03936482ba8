import { errorResponses, Query } from '@binnacle/common/server';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { secretAgentFlags } from '../../config/options.ts';
import type { App } from '../../context.ts';
import {
  allocationProfile,
  cpuProfile,
  eventLoopBlocking,
  heapSnapshot,
  processReport,
  redactedArgv,
  traceEvents,
} from './profiles.ts';

const tags = ['debug'];
const Open = Type.Object({}, { additionalProperties: true });
const Seconds = Query({
  seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 10 })),
});

/** The family, as Go's pprof index lists it, with what each is in a Node process and what opens it. */
export const pprofProfiles = [
  {
    name: 'profile',
    description: 'CPU profile of the next ?seconds (default 10)',
    opens: 'DevTools → Performance',
  },
  { name: 'heap', description: 'V8 heap snapshot: what is kept, and by whom', opens: 'DevTools → Memory' },
  {
    name: 'allocs',
    description: 'allocations of the next ?seconds, sampled with their stacks',
    opens: 'DevTools → Memory → Load',
  },
  {
    name: 'trace',
    description: 'V8 and Node trace events of the next ?seconds',
    opens: 'ui.perfetto.dev or chrome://tracing',
  },
  {
    name: 'block',
    description: 'event-loop delay histogram and utilisation over the next ?seconds',
    opens: 'JSON',
  },
  {
    name: 'goroutine',
    description: 'JavaScript stack, libuv handles, workers and resource use now (diagnostic report)',
    opens: 'JSON',
  },
  { name: 'threadcreate', description: 'worker threads and the libuv thread pool', opens: 'JSON' },
  { name: 'cmdline', description: 'the command line, NUL-separated, credentials redacted', opens: 'text' },
] as const;

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const attachment = (reply: FastifyReply, extension: string) =>
  reply.header('Content-Disposition', `attachment; filename="binnacle-${stamp()}.${extension}"`);

/**
 * `/debug/pprof/*`: Go's profile names mapped onto what V8 and Node can take of themselves. Left out in cloud
 * mode with the other debug routes. `symbol` and `mutex` have no counterpart (no native symbols to resolve, no
 * lock contention in one JavaScript thread) and are not served.
 */
export function pprofRoutes(app: App): void {
  app.get(
    '/debug/pprof/',
    {
      schema: {
        tags,
        summary: 'The profiles this agent can take, with what opens each',
        querystring: Query({}),
        response: {
          200: Type.Object({
            profiles: Type.Array(
              Type.Object({
                name: Type.String(),
                path: Type.String(),
                description: Type.String(),
                opens: Type.String(),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    () => ({ profiles: pprofProfiles.map((p) => ({ ...p, path: `/debug/pprof/${p.name}` })) }),
  );

  app.get(
    '/debug/pprof/profile',
    {
      schema: {
        tags,
        summary: 'A CPU profile of the next seconds (DevTools → Performance); one capture at a time',
        querystring: Seconds,
        response: { 200: Open, ...errorResponses },
      },
    },
    async (request, reply) => {
      const profile = await cpuProfile(request.query.seconds ?? 10);
      attachment(reply, 'cpuprofile');
      return profile;
    },
  );

  app.get(
    '/debug/pprof/heap',
    {
      schema: {
        tags,
        summary: 'A V8 heap snapshot of the agent (DevTools → Memory)',
        produces: ['application/octet-stream'],
        querystring: Query({}),
        response: { 200: Type.String(), ...errorResponses },
      },
    },
    (_request, reply) =>
      attachment(reply, 'heapsnapshot').type('application/octet-stream').send(heapSnapshot()),
  );

  app.get(
    '/debug/pprof/allocs',
    {
      schema: {
        tags,
        summary: 'Allocations of the next seconds, sampled with their stacks (DevTools → Memory → Load)',
        querystring: Seconds,
        response: { 200: Open, ...errorResponses },
      },
    },
    async (request, reply) => {
      const profile = await allocationProfile(request.query.seconds ?? 10);
      attachment(reply, 'heapprofile');
      return profile;
    },
  );

  app.get(
    '/debug/pprof/trace',
    {
      schema: {
        tags,
        summary: 'V8 and Node trace events of the next seconds (Perfetto, chrome://tracing)',
        querystring: Seconds,
        response: { 200: Type.Object({ traceEvents: Type.Array(Open) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const trace = await traceEvents(request.query.seconds ?? 10);
      attachment(reply, 'trace.json');
      return trace;
    },
  );

  app.get(
    '/debug/pprof/block',
    {
      schema: {
        tags,
        summary:
          'How long the event loop was held up over the next seconds: delay percentiles and utilisation',
        querystring: Seconds,
        response: { 200: Open, ...errorResponses },
      },
    },
    (request) => eventLoopBlocking(request.query.seconds ?? 10),
  );

  app.get(
    '/debug/pprof/goroutine',
    {
      schema: {
        tags,
        summary: 'What the process is doing now: JavaScript stack, libuv handles, workers (no environment)',
        querystring: Query({}),
        response: { 200: Open, ...errorResponses },
      },
    },
    () => processReport(secretAgentFlags),
  );

  app.get(
    '/debug/pprof/threadcreate',
    {
      schema: {
        tags,
        summary: 'Worker threads and the libuv thread pool',
        querystring: Query({}),
        response: {
          200: Type.Object({ workers: Type.Array(Open), threadpoolSize: Type.Integer() }),
          ...errorResponses,
        },
      },
    },
    () => {
      const report = process.report.getReport() as { workers?: object[] };
      // libuv's default pool is 4 threads unless the variable sets it.
      const threadpoolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4;
      return { workers: report.workers ?? [], threadpoolSize };
    },
  );

  app.get(
    '/debug/pprof/cmdline',
    {
      schema: {
        tags,
        summary: 'The command line, NUL-separated as Go serves it, with credential flags redacted',
        produces: ['text/plain'],
        querystring: Query({}),
        response: { 200: Type.String(), ...errorResponses },
      },
    },
    (_request, reply) =>
      reply.type('text/plain; charset=utf-8').send(redactedArgv(process.argv, secretAgentFlags).join('\0')),
  );
}
