import { Duration, errorResponses, Query, sseEvents } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { addressPattern } from '../../http/schemas.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { MetricsStores } from '../../scope/metricsdb/stores.ts';
import type { TrafficPairs } from '../../scope/topology/traffic-edges.ts';
import { trafficWindowOf } from '../../scope/traffic/window.ts';
import { sourceNames } from './detect.ts';
import type { TrafficContext } from './module.ts';
import {
  ConnectionAnswer,
  FlowPair,
  FlowsAnswer,
  flowStreamEvents,
  SourceChoice,
  SourcesAnswer,
} from './schemas.ts';
import { flowLimits, TrafficService } from './service.ts';
import { FlowStreams, flowStreamLimits } from './stream.ts';
import type { FlowView } from './visibility.ts';

const tags = ['traffic'];
const windowQuery = {
  namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
  namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
  since: Type.Optional(Duration({ description: 'the window back from now, 10s to 1h (default 5m)' })),
};

/** The flows a caller may see (ADR 0034): its namespaces, and Nodes only when it may list them. */
export async function flowView(
  ctx: TrafficContext,
  caller: Impersonation | undefined,
  query: { namespace?: string; namespaces?: string },
): Promise<FlowView> {
  const requested = requestedNamespaces(query);
  const view = await callerView(ctx, caller);
  return { namespaces: view.namespaces, nodesHidden: view.hiddenKinds.includes('Node'), requested };
}

/**
 * Registers the traffic routes; answers the topology's traffic view: the caller's pairs of the default window
 * within the namespaces the graph shows, or why there are none.
 */
export function trafficRoutes(app: App, ctx: TrafficContext, stores: MetricsStores): TrafficPairs {
  const service = new TrafficService(ctx, stores);
  const streams = new FlowStreams(service, ctx.sessions);
  app.addSchema(FlowPair);
  app.addHook('preClose', (done) => {
    streams.close();
    service.close();
    done();
  });

  app.get(
    '/api/traffic/sources',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Traffic sources found in the cluster (Hubble, Istio, Caretta, Beyla), the active one, and what to install when none is',
        querystring: Query({}),
        response: { 200: SourcesAnswer, ...errorResponses },
      },
    },
    async () => service.sources(),
  );

  app.get(
    '/api/traffic/flows',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Flows of the window added up per source → destination pair, ends named after Kubernetes objects; available:false when no source gives flows',
        querystring: Query({
          ...windowQuery,
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: flowLimits.maxPairs, default: flowLimits.defaultPairs }),
          ),
        }),
        response: { 200: FlowsAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const windowMs = trafficWindowOf(q.since);
      const view = await flowView(ctx, request.caller, q);
      return service.flows(view, windowMs, q.limit ?? flowLimits.defaultPairs);
    },
  );

  app.get(
    '/api/traffic/flows/stream',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `SSE: a "snapshot" of the window's pairs, then a "delta" of the pairs that changed or left the window (at most once a second), "heartbeat" every 15 s; "unavailable" while no source gives flows, "error" when the source's stream broke (it is retried); Istio, Caretta and Beyla are read from the metrics store every 15 s. At most ${flowStreamLimits.clients} clients.`,
        produces: ['text/event-stream'],
        querystring: Query(windowQuery),
        response: sseEvents(flowStreamEvents),
      },
    },
    async (request, reply) => {
      const windowMs = trafficWindowOf(request.query.since);
      await streams.open(reply, await flowView(ctx, request.caller, request.query), windowMs);
    },
  );

  app.get(
    '/api/traffic/source',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'The preferred traffic source (null: the first found in detection order) and the active one',
        querystring: Query({}),
        response: { 200: SourceChoice, ...errorResponses },
      },
    },
    async () => ({ preferred: service.preferred, active: (await service.sources()).active }),
  );

  app.post(
    '/api/traffic/source',
    {
      config: callerAware,
      schema: {
        querystring: Query({}),
        tags,
        summary: 'Prefers a traffic source (hubble, istio, caretta, beyla) or `auto`',
        body: Type.Object({ source: Type.Enum([...sourceNames, 'auto']) }, { additionalProperties: false }),
        response: { 200: SourceChoice, ...errorResponses },
      },
    },
    async (request) => {
      service.setPreferred(request.body.source);
      streams.restart();
      return { preferred: service.preferred, active: (await service.sources()).active };
    },
  );

  app.get(
    '/api/traffic/connection',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'The state of the link to the Hubble relay (address, how it was reached, what was tried)',
        querystring: Query({}),
        response: { 200: ConnectionAnswer, ...errorResponses },
      },
    },
    () => service.hubble.state,
  );

  app.post(
    '/api/traffic/connect',
    {
      config: callerAware,
      // A bare POST (no body at all) means "find the relay", as `{}` does.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
      schema: {
        querystring: Query({}),
        tags,
        summary:
          "Connects to the Hubble relay: the body's address, else --hubble-address, else the hubble-relay Service by in-cluster DNS or a port-forward; 200 with available:false and what was tried when none answers",
        body: Type.Object(
          {
            address: Type.Optional(
              Type.String({
                pattern: addressPattern,
                maxLength: 260,
                description: 'host:port of a Hubble relay',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: ConnectionAnswer, ...errorResponses },
      },
    },
    async (request) => service.hubble.connect(service.relay(), request.body.address),
  );
  return async (caller, namespaces, windowMs = flowLimits.defaultWindowMs) => {
    const view = await flowView(ctx, caller, { namespaces: namespaces?.join(',') });
    const answer = await service.flows(view, windowMs, flowLimits.maxPairs);
    if (!answer.available) return { reason: answer.reason };
    const { source, from, to, pairs, truncated } = answer;
    return { pairs, window: { source, from, to, truncated } };
  };
}
