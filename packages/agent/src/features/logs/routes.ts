import { Duration, errorResponses, Query, sseEvents } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { asCallerOnPod } from '../../http/caller.ts';
import { podAndContainer } from '../../kube/pods.ts';
import type { LogsContext } from './module.ts';
import { logStreamEvents } from './schemas.ts';
import { quickReadLimits, readPodLog, sinceSeconds } from './service.ts';
import { logStreams, streamPodLog } from './stream.ts';
import { streamWorkloadLogs } from './workload.ts';

const tags = ['logs'];
const Namespace = Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' });
const Name = Type.String({ minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' });
const Container = Type.String({ minLength: 1, maxLength: 63 });
const Since = Duration({ maxLength: 32, description: 'only lines newer than this: 90s, 10m, 1h' });
const Tail = (fallback: number) =>
  Type.Integer({
    minimum: 0,
    maximum: quickReadLimits.maxTail,
    default: fallback,
    description: 'last N lines (per container)',
  });

// Through the hub, logs are read as the caller: `get pods/log` in the namespace.
const readLogs = asCallerOnPod('get', 'log');

export function logRoutes(app: App, ctx: LogsContext): void {
  const streams = logStreams(ctx);

  app.get(
    '/api/pods/:namespace/:name/logs',
    {
      config: readLogs,
      schema: {
        tags,
        summary: 'The last lines of a container at once: at most 10 000 lines and 5 MiB',
        params: Type.Object({ namespace: Namespace, name: Name }),
        querystring: Query({
          container: Type.Optional(Container),
          tail: Type.Optional(Tail(quickReadLimits.defaultTail)),
          since: Type.Optional(Since),
          previous: Type.Optional(Type.Boolean()),
        }),
        response: {
          200: Type.Object({
            namespace: Type.String(),
            pod: Type.String(),
            container: Type.String(),
            containers: Type.Array(Type.String()),
            lines: Type.Array(Type.Object({ timestamp: Type.Optional(Type.String()), line: Type.String() })),
            truncated: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const q = request.query;
      return readPodLog(ctx, request.params.namespace, request.params.name, {
        container: q.container,
        tail: q.tail,
        sinceSeconds: sinceSeconds(q.since),
        previous: q.previous,
        as: request.caller,
      });
    },
  );

  app.get(
    '/api/pods/:namespace/:name/logs/stream',
    {
      config: readLogs,
      schema: {
        tags,
        summary:
          'SSE: "connected", then a "log" event per line ({pod, container, timestamp, line}), "end" when the container stops',
        produces: ['text/event-stream'],
        params: Type.Object({ namespace: Namespace, name: Name }),
        querystring: Query({
          container: Type.Optional(Container),
          tail: Type.Optional(Tail(100)),
          since: Type.Optional(Since),
          previous: Type.Optional(
            Type.Boolean({ description: 'the log of the previous (crashed) instance' }),
          ),
          timestamps: Type.Optional(Type.Boolean({ default: true })),
        }),
        response: sseEvents(logStreamEvents),
      },
    },
    async (request, reply) => {
      const { namespace, name } = request.params;
      const q = request.query;
      const target = podAndContainer(ctx.cluster, namespace, name, q.container);
      await streamPodLog(ctx, reply, streams, namespace, target, {
        follow: !q.previous,
        tail: q.tail,
        sinceSeconds: sinceSeconds(q.since),
        previous: q.previous,
        timestamps: q.timestamps ?? true,
        as: request.caller,
      });
    },
  );

  app.get(
    '/api/workloads/:kind/:namespace/:name/logs/stream',
    {
      config: readLogs,
      schema: {
        tags,
        summary:
          "SSE: every pod's log of a workload, merged; pods that start later (a rollout) join, deleted pods leave",
        produces: ['text/event-stream'],
        params: Type.Object({
          kind: Type.String({ minLength: 1, maxLength: 253 }),
          namespace: Namespace,
          name: Name,
        }),
        querystring: Query({
          container: Type.Optional(Container),
          tail: Type.Optional(Tail(50)),
          since: Type.Optional(Since),
          timestamps: Type.Optional(Type.Boolean({ default: true })),
        }),
        response: sseEvents(logStreamEvents),
      },
    },
    (request, reply) => {
      const { kind, namespace, name } = request.params;
      const q = request.query;
      streamWorkloadLogs(ctx, reply, streams, kind, namespace, name, {
        container: q.container,
        tail: q.tail,
        sinceSeconds: sinceSeconds(q.since),
        timestamps: q.timestamps ?? true,
        as: request.caller,
      });
    },
  );
}
