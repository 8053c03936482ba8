import { searchLimits } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { redactText } from '../../scope/redact.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { severityOf } from '../dashboard/groups.ts';
import { clusterProblems } from '../dashboard/service.ts';
import { topNodes, topPods } from '../metrics/service.ts';
import { topWorkloads } from '../metrics/top-workloads.ts';
import { subjectPermissions } from '../rbac/subject-permissions.ts';
import { searchObjects } from '../resources/search.ts';
import { limit, name, namespace, scope } from './args.ts';
import { type Tool, tool } from './tool.ts';

/** The tools about the cluster as a whole: who uses most, what is wrong, where something is, who may do what. */
export const clusterTools: Tool[] = [
  tool({
    name: 'top_resources',
    title: 'Top CPU and memory users',
    description:
      'The pods, workloads (their pods summed) or nodes using the most CPU or memory now, from metrics-server, beside their requests and limits (nodes: allocatable). Answers available: false with the reason when metrics-server is not serving.',
    input: {
      kind: z.enum(['pods', 'workloads', 'nodes']).default('pods'),
      namespace: namespace.describe('a namespace (pods and workloads); all you may see when absent'),
      sort: z.enum(['cpu', 'memory']).default('cpu'),
      limit: limit(20, 100),
    },
    run(args, { ctx, caller }) {
      const query = { namespace: args.namespace, sort: args.sort, limit: args.limit };
      if (args.kind === 'pods') return topPods(ctx, caller, query);
      if (args.kind === 'workloads') return topWorkloads(ctx, caller, query);
      if (args.namespace) throw badRequest('namespace does not apply to nodes');
      return topNodes(ctx, caller, query);
    },
  }),
  tool({
    name: 'issues',
    title: 'Problems in the cluster',
    description:
      "Everything wrong, as a flat list: failing pods and workloads, nodes not ready, expired or unreadable certificates (critical); pods pending over 5 minutes, unbound claims, certificates expiring within 7 days, each danger finding of the audit (warning) — the dashboard's problems without its cut at 100.",
    input: {
      namespace,
      severity: z.enum(['critical', 'warning']).optional(),
      kind: z.string().min(1).max(253).optional().describe('a Kind, e.g. Pod, Deployment, Secret'),
      limit: limit(200, 1000),
    },
    async run(args, { ctx, caller, now }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const { problems, loading, auditError } = clusterProblems(ctx, view, await readAuditSettings(ctx), now);
      const issues = problems
        .map((p) => ({ severity: severityOf(p), ...p, message: redactText(p.message) }))
        .filter(
          (p) =>
            (!args.severity || p.severity === args.severity) &&
            (!args.kind || p.kind.toLowerCase() === args.kind.toLowerCase()),
        )
        .sort((a, b) => Number(a.severity === 'warning') - Number(b.severity === 'warning'));
      return {
        total: issues.length,
        issues: issues.slice(0, args.limit),
        ...(loading.length > 0 ? { loading } : {}),
        ...(auditError ? { auditError } : {}),
      };
    },
  }),
  tool({
    name: 'search',
    title: 'Search the cluster',
    description:
      'Free-text search over the objects you may see: every word must appear in the name, namespace, kind, a label (key=value) or an annotation value; best name matches first, each as a one-line summary "Kind namespace/name: state".',
    input: {
      query: z
        .string()
        .min(1)
        .max(searchLimits.maxQueryChars)
        .describe('words to look for, e.g. "checkout shop"'),
      limit: limit(searchLimits.defaultLimit, searchLimits.maxLimit),
      namespace,
      kind: z.string().min(1).max(253).optional().describe('only this kind: pods, deploy, Service …'),
    },
    async run(args, { ctx, caller, now }) {
      const result = await searchObjects(ctx, caller, args, now);
      return {
        total: result.total,
        hits: result.hits.map((hit) => hit.summary),
        ...(result.loading.length > 0 ? { loading: result.loading } : {}),
      };
    },
  }),
  tool({
    name: 'get_subject_permissions',
    title: "A subject's RBAC permissions",
    description:
      'What a ServiceAccount, User or Group may do: the RoleBindings and ClusterRoleBindings naming it (a ServiceAccount also through the system:serviceaccounts groups), the roles they grant and all their rules together. Groups a User gets from its identity provider are not known here: ask for each Group.',
    input: {
      kind: z.enum(['ServiceAccount', 'User', 'Group']),
      name,
      namespace: namespace.describe(
        "a ServiceAccount's namespace (required for one); for a User or Group, only RoleBindings in it",
      ),
    },
    run: (args, { ctx, caller }) => subjectPermissions(ctx, caller, args),
  }),
];
