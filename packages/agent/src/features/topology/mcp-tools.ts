import { integrationOf, topologyNodeId } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { callerView, requireVisible } from '../../http/caller-view.ts';
import { group, kind, limit, name, namespace, requiredNamespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { topologyGroups } from '../../scope/topology/builder.ts';
import { maxExpandedPods } from '../../scope/topology/pod-groups.ts';
import type { TopologyContext } from './module.ts';
import { neighborhood } from './neighborhood.ts';

const tool = toolsOf<TopologyContext>();

/** A topology node as one line: `deployment/shop/web (healthy)`, a group with its count: `… (healthy) × 40`. */
const nodeLine = (node: { id: string; status: string; data?: Record<string, unknown> }) =>
  `${node.id} (${node.status})${node.data?.count === undefined ? '' : ` × ${String(node.data.count)}`}`;

const reducedTo = {
  'pod-groups': "each owner's pods are one podgroup",
  kinds: 'each namespace is one kindgroup per kind, counting its objects',
  namespaces: 'one node per namespace',
};

/** What a whole-cluster topology too big to draw left out, and how to see it all. */
const reducedNote = (graph: { levelOfDetail: keyof typeof reducedTo; leftOutKinds?: string[] }) =>
  `too big to draw object by object: ${reducedTo[graph.levelOfDetail]}${
    graph.leftOutKinds?.length ? `; ${graph.leftOutKinds.join(', ')} left out` : ''
  }; ask for one namespace to see each object`;

/** A topology edge as one line: `deployment/shop/web -manages-> pod/shop/web-1`. */
const edgeLine = (edge: { source: string; type: string; target: string }) =>
  `${edge.source} -${edge.type}-> ${edge.target}`;

/** The topology's tools: how objects connect, and one object's neighbours. */
export const topologyTools = [
  tool({
    name: 'get_topology',
    title: 'Topology',
    description:
      'How objects connect: Ingress → Service → workload → Pods, configuration, volumes, autoscalers and disruption budgets, each with its health.',
    input: { namespace },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const graph = ctx.topology.get(ctx, {
        namespaces: view.namespaces,
        audit: await readAuditSettings(ctx),
        certificates: !view.hiddenKinds.includes('Secret'),
      });
      return {
        ...(graph.levelOfDetail
          ? { note: reducedNote({ ...graph, levelOfDetail: graph.levelOfDetail }) }
          : {}),
        nodes: graph.nodes.map(nodeLine),
        edges: graph.edges.map(edgeLine),
        ...(graph.warnings.length > 0 ? { warnings: graph.warnings } : {}),
      };
    },
  }),
  tool({
    name: 'get_neighborhood',
    title: 'Neighbourhood in the topology',
    description:
      "An object's neighbours in the topology, both ways (owner and owned pods, Services and Ingresses routing to it, ConfigMaps, Secrets and claims it uses, autoscalers and disruption budgets), each with its health, up to hops edges away.",
    input: {
      kind,
      name,
      namespace: requiredNamespace.describe('every kind the topology draws is namespaced'),
      group,
      hops: z
        .number()
        .int()
        .min(1)
        .max(2)
        .default(1)
        .describe('edges away from the object (default 1, max 2)'),
      max_nodes: limit(25, 100).describe('nodes at most, nearest first (default 25, max 100)'),
    },
    async run(args, { ctx, caller }) {
      const resource = ctx.cluster.resolve(args.kind, args.group);
      const drawn =
        (Object.hasOwn(topologyGroups, resource.kind) &&
          topologyGroups[resource.kind as keyof typeof topologyGroups] === resource.group) ||
        integrationOf(resource.group, resource.kind) !== undefined;
      if (!drawn || !resource.namespaced)
        throw badRequest(
          `the topology does not draw ${resource.kind} around a namespace; it draws ${Object.keys(topologyGroups).join(', ')} and the ecosystem's namespaced kinds (docs/topology.md)`,
        );
      const view = await callerView(ctx, caller, [args.namespace]);
      requireVisible(caller, view, resource.kind, args.namespace);
      const graph = ctx.topology.get(ctx, {
        namespaces: [args.namespace],
        includeReplicaSets: resource.kind === 'ReplicaSet',
        includeSecrets: resource.kind === 'Secret' && !view.hiddenKinds.includes('Secret'),
        // A pod is found among its siblings only when they are drawn one by one.
        maxIndividualPods: resource.kind === 'Pod' ? maxExpandedPods : undefined,
        audit: await readAuditSettings(ctx),
        certificates: !view.hiddenKinds.includes('Secret'),
      });
      const id = topologyNodeId(resource.group, resource.kind, args.namespace, args.name);
      const found = neighborhood(graph, id, { hops: args.hops, maxNodes: args.max_nodes });
      if (!found)
        throw new AppError(
          'not_found',
          `${resource.kind} ${args.namespace}/${args.name} is not in the topology`,
        );
      return {
        center: nodeLine(found.center),
        nodes: found.nodes
          .slice(1)
          .map((n) => `${nodeLine(n)}, ${n.distance} hop${n.distance === 1 ? '' : 's'}`),
        edges: found.edges.map(edgeLine),
        ...(found.omitted > 0
          ? { omitted: `${found.omitted} more nodes within reach; raise max_nodes` }
          : {}),
        ...(graph.warnings.length > 0 ? { warnings: graph.warnings } : {}),
      };
    },
  }),
];
