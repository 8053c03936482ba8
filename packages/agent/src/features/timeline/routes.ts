import { errorResponses, Query, sseEvents, TimeOrDuration } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView, requireVisible } from '../../http/caller-view.ts';
import { csv, requestedNamespaces } from '../../http/query.ts';
import { KubeObjectSchema } from '../../http/schemas.ts';
import { scopeOf } from '../../kube/discovery.ts';
import { kubeEvents } from '../../scope/events.ts';
import type { TimelineContext } from './module.ts';
import { changes, changesLimit, childChanges, type Preset, presets } from './service.ts';
import { ChangeStreams, changeStreamEvents } from './stream.ts';

const tags = ['timeline'];
const Namespace = Type.String({ minLength: 1, maxLength: 63 });
const Limit = Type.Integer({ minimum: 1, maximum: changesLimit.max, default: changesLimit.default });

const TimelineEvent = Type.Object(
  {
    seq: Type.Integer(),
    timestamp: Type.String(),
    source: Type.Enum(['informer', 'k8s_event', 'historical', 'action', 'agent']),
    eventType: Type.Enum(['add', 'update', 'delete', 'Normal', 'Warning']),
    kind: Type.String(),
    group: Type.String(),
    namespace: Type.Optional(Type.String()),
    name: Type.String(),
    uid: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    diff: Type.Optional(
      Type.Object({
        fields: Type.Array(
          Type.Object({
            path: Type.String(),
            old: Type.Optional(Type.Unknown()),
            new: Type.Optional(Type.Unknown()),
          }),
        ),
        summary: Type.String(),
      }),
    ),
    health: Type.Optional(Type.String()),
    owner: Type.Optional(
      Type.Object({ kind: Type.String(), name: Type.String(), uid: Type.Optional(Type.String()) }),
    ),
    count: Type.Optional(Type.Integer()),
    actor: Type.Optional(
      Type.Object(
        {
          user: Type.String(),
          groups: Type.Optional(Type.Array(Type.String())),
          identity: Type.Optional(
            Type.Enum(['caller', 'agent'], {
              description:
                "caller: the signed-in person the agent impersonated (forwarded by the hub, or signed in with --auth-mode proxy|oidc); agent: nobody was signed in, the agent's own Kubernetes identity made it. Absent on entries recorded before it existed",
            }),
          ),
        },
        { description: 'who made an `action` entry' },
      ),
    ),
  },
  { $id: 'TimelineEvent' },
);

export function timelineRoutes(app: App, ctx: TimelineContext): void {
  app.addSchema(TimelineEvent);
  const streams = new ChangeStreams(ctx);
  app.addHook('preClose', (done) => {
    streams.close();
    done();
  });

  app.get(
    '/api/events',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Kubernetes Events from the cache, newest first',
        querystring: Query({
          namespace: Type.Optional(Namespace),
          namespaces: Type.Optional(Type.String({ minLength: 1 })),
          type: Type.Optional(Type.Enum(['Normal', 'Warning'])),
          kind: Type.Optional(
            Type.String({ minLength: 1, maxLength: 253, description: 'kind of the involved object' }),
          ),
          name: Type.Optional(
            Type.String({ minLength: 1, maxLength: 253, description: 'name of the involved object' }),
          ),
          limit: Type.Optional(Limit),
        }),
        response: {
          200: Type.Object({ items: Type.Array(KubeObjectSchema), total: Type.Integer() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const view = await callerView(ctx, request.caller, requestedNamespaces(q));
      return kubeEvents(ctx, {
        namespaces: view.namespaces,
        type: q.type,
        kind: q.kind,
        name: q.name,
        limit: q.limit ?? changesLimit.default,
      });
    },
  );

  app.get(
    '/api/changes',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'The change timeline, newest first by timestamp (one instant: newest recorded first); with sinceSeq, the events recorded after that cursor, in the order recorded',
        querystring: Query({
          namespace: Type.Optional(Namespace),
          namespaces: Type.Optional(Type.String({ minLength: 1 })),
          kind: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated kinds' })),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
          since: Type.Optional(
            TimeOrDuration({
              maxLength: 64,
              description: 'RFC 3339 time, or a duration back from now (90m, 24h)',
            }),
          ),
          sinceSeq: Type.Optional(
            Type.Integer({
              minimum: 0,
              // Larger numbers lose precision in JavaScript and overflow the timeline's integer column.
              maximum: Number.MAX_SAFE_INTEGER,
              description: 'cursor: only events after this seq',
            }),
          ),
          epoch: Type.Optional(
            Type.String({
              minLength: 1,
              description: 'the epoch the cursor came from; another epoch answers stale',
            }),
          ),
          preset: Type.Optional(Type.Enum([...presets], { default: 'default' })),
          limit: Type.Optional(Limit),
        }),
        response: {
          200: Type.Object({
            events: Type.Array(Type.Ref('TimelineEvent')),
            epoch: Type.String(),
            oldestSeq: Type.Integer(),
            latestSeq: Type.Integer(),
            stale: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const view = await callerView(ctx, request.caller, requestedNamespaces(q));
      const page = await changes(ctx.timeline, {
        ...view,
        kinds: csv(q.kind),
        name: q.name,
        since: q.since,
        sinceSeq: q.sinceSeq,
        epoch: q.epoch,
        limit: q.limit,
        preset: q.preset as Preset | undefined,
      });
      reply.header('X-Binnacle-Timeline-Epoch', page.epoch);
      return page;
    },
  );

  app.get(
    '/api/changes/:kind/:namespace/:name/children',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "Changes of an object's descendants through owner references (also those already deleted)",
        params: Type.Object({
          kind: Type.String({ minLength: 1, maxLength: 253 }),
          namespace: Type.String({
            minLength: 1,
            maxLength: 63,
            pattern: '^(_|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$',
          }),
          name: Type.String({ minLength: 1, maxLength: 253, pattern: '^[^/]+$' }),
        }),
        querystring: Query({ limit: Type.Optional(Limit) }),
        response: {
          200: Type.Object({
            root: Type.Object({
              kind: Type.String(),
              namespace: Type.Optional(Type.String()),
              name: Type.String(),
              uid: Type.String(),
            }),
            events: Type.Array(Type.Ref('TimelineEvent')),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { kind, namespace, name } = request.params;
      const resource = ctx.cluster.resolve(kind);
      const scope = scopeOf(resource, namespace);
      const view = await callerView(ctx, request.caller, scope ? [scope] : undefined);
      requireVisible(request.caller, view, resource.kind, scope);
      return childChanges(
        ctx,
        ctx.timeline,
        kind,
        scope,
        name,
        request.query.limit ?? changesLimit.default,
        view,
      );
    },
  );

  app.get(
    '/api/events/stream',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `SSE: "hello", a "topology" snapshot, then "change" events as they are recorded, fresh "topology" when it changed, "heartbeat" every 30 s; at most --max-event-streams clients (200 by default), 503 too_many_streams beyond. Resume with Last-Event-ID.`,
        produces: ['text/event-stream'],
        querystring: Query({
          namespaces: Type.Optional(Type.String({ minLength: 1 })),
          expand: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 4096,
              description: 'comma-separated PodGroup ids the topology shows as their pods',
            }),
          ),
          preset: Type.Optional(Type.Enum([...presets], { default: 'default' })),
          lastEventId: Type.Optional(
            Type.String({
              maxLength: 128,
              description: 'the Last-Event-ID, for clients that cannot set the header',
            }),
          ),
        }),
        response: sseEvents(changeStreamEvents),
      },
    },
    async (request, reply) => {
      const header = request.headers['last-event-id'];
      await streams.open(reply, {
        ...(await callerView(ctx, request.caller, csv(request.query.namespaces))),
        expand: csv(request.query.expand),
        preset: (request.query.preset ?? 'default') as Preset,
        lastEventId: (Array.isArray(header) ? header[0] : header) ?? request.query.lastEventId,
      });
    },
  );
}
