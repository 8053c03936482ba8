import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { AtParam, requestedMoment, requestedNamespaces } from '../../http/query.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { defaultTopologyOptions } from '../../scope/topology/builder.ts';
import { Topology } from '../../scope/topology/schemas.ts';
import { type TrafficPairs, withTrafficEdges } from '../../scope/topology/traffic-edges.ts';
import type { TopologyContext } from './module.ts';

export function topologyRoutes(app: App, ctx: TopologyContext, traffic?: TrafficPairs): void {
  app.get(
    '/api/topology',
    {
      config: callerAware,
      schema: {
        tags: ['topology'],
        summary:
          'Nodes and typed edges of the workloads; a cluster too big to draw whole is drawn at a coarser level of detail',
        querystring: Query({
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
          replicaSets: Type.Optional(
            Type.Boolean({
              default: defaultTopologyOptions.includeReplicaSets,
              description: 'show ReplicaSets between Deployments and Pods',
            }),
          ),
          secrets: Type.Optional(
            Type.Boolean({
              default: defaultTopologyOptions.includeSecrets,
              description: 'show the Secrets workloads read',
            }),
          ),
          podGroupThreshold: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 1000,
              default: defaultTopologyOptions.maxIndividualPods,
              description:
                'more pods than this under one owner (or one app label, for pods without an owner) become one PodGroup node',
            }),
          ),
          expand: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 4096,
              description: 'comma-separated PodGroup ids to show as their individual pods',
            }),
          ),
          view: Type.Optional(
            Type.Enum(['resources', 'traffic'], {
              default: 'resources',
              description: 'traffic: the same graph plus a `traffic` edge per observed flow pair (last 5m)',
            }),
          ),
          at: Type.Optional(AtParam),
        }),
        response: { 200: Topology, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const view = await callerView(ctx, request.caller, requestedNamespaces(q));
      const at = requestedMoment(q.at, 'at');
      const topology = ctx.topology.get(ctx, {
        namespaces: view.namespaces,
        includeReplicaSets: q.replicaSets,
        includeSecrets: q.secrets && !view.hiddenKinds.includes('Secret'),
        maxIndividualPods: q.podGroupThreshold,
        expand: q.expand?.split(',').filter(Boolean),
        audit: await readAuditSettings(ctx),
        certificates: !view.hiddenKinds.includes('Secret'),
        at,
      });
      if (q.view !== 'traffic' || !traffic) return topology;
      if (at !== undefined)
        return {
          ...topology,
          warnings: [...topology.warnings, 'traffic: flows of a past moment are not kept'],
        };
      const flows = await traffic(request.caller, view.namespaces);
      if ('reason' in flows)
        return { ...topology, warnings: [...topology.warnings, `traffic: ${flows.reason}`] };
      return withTrafficEdges(topology, flows.pairs);
    },
  );
}
