import { AppError, badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { callerView, requireVisible } from '../../http/caller-view.ts';
import { redactText } from '../../scope/redact.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { topologyGroups } from '../../scope/topology/builder.ts';
import { nodeId } from '../../scope/topology/model.ts';
import { maxExpandedPods } from '../../scope/topology/pod-groups.ts';
import { sinceSeconds } from '../logs/service.ts';
import { readWorkloadLogs } from '../logs/workload-tail.ts';
import { neighborhood } from '../topology/neighborhood.ts';
import { container, grep, group, kind, limit, logSince, name, requiredNamespace } from './args.ts';
import { diagnose, diagnosedKinds } from './diagnose.ts';
import { edgeLine, grepped, nodeLine } from './rows.ts';
import { type Tool, tool } from './tool.ts';

/** The tools about one workload or object: what it connects to, its pods' logs, and why it fails. */
export const workloadTools: Tool[] = [
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
      if (
        !Object.hasOwn(topologyGroups, resource.kind) ||
        topologyGroups[resource.kind as keyof typeof topologyGroups] !== resource.group
      )
        throw badRequest(
          `the topology does not draw ${resource.kind}; it draws ${Object.keys(topologyGroups).join(', ')}`,
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
      const id = nodeId(resource.kind, args.namespace, args.name);
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
  tool({
    name: 'get_workload_logs',
    title: 'Workload logs',
    description:
      "The last lines of all of a workload's pods (at most 20 pods), merged by time and labelled [pod/container], credentials scrubbed; optionally only those matching grep.",
    input: {
      kind: z.enum(['deployment', 'statefulset', 'daemonset']).default('deployment'),
      namespace: requiredNamespace,
      name,
      container: container.describe('default: every container of each pod'),
      tail_lines: limit(100, 2000).describe('lines over all pods (default 100, max 2000)'),
      grep,
      since: logSince,
      previous: z.boolean().default(false).describe("the previous run's logs (after restarts)"),
    },
    async run(args, { ctx, caller }) {
      const tail = await readWorkloadLogs(ctx, args.kind, args.namespace, args.name, {
        container: args.container,
        tail: args.tail_lines,
        sinceSeconds: sinceSeconds(args.since, 'since'),
        previous: args.previous,
        as: caller,
      });
      const lines = (await grepped(tail.lines, args.grep, (l) => l.line)).map(
        (l) => `[${l.pod}/${l.container}] ${redactText(l.line)}`,
      );
      return [
        `# ${tail.kind} ${tail.namespace}/${tail.name}: pods ${tail.pods.join(', ') || 'none with logs'}${tail.podsLeftOut > 0 ? ` (${tail.podsLeftOut} more left out)` : ''}; ${lines.length} lines${args.grep ? ` matching /${args.grep}/i` : ''}`,
        ...tail.errors.map((e) => `# ${e.pod}/${e.container}: ${e.error}`),
        ...lines,
      ].join('\n');
    },
  }),
  tool({
    name: 'diagnose',
    title: 'Diagnose a pod or workload',
    description:
      "Why a pod or workload misbehaves, in one answer: its summary, the failing pods' container states (waiting reasons, last termination, restarts), recent events of it and its pods, and the last log lines of the most troubled pod (the previous run's when it crashed), redacted.",
    input: {
      kind: z.enum(diagnosedKinds),
      namespace: requiredNamespace,
      name,
      container: container.describe('whose log to read; default: the most troubled container'),
      tail_lines: limit(100, 2000),
      since: logSince,
    },
    run: (args, { ctx, caller, now }) =>
      diagnose(
        ctx,
        caller,
        {
          kind: args.kind,
          namespace: args.namespace,
          name: args.name,
          container: args.container,
          tail: args.tail_lines,
          sinceSeconds: sinceSeconds(args.since, 'since'),
        },
        now,
      ),
  }),
];
