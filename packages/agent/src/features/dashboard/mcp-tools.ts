import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { limit, namespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactText } from '../../scope/redact.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { severityOf } from './groups.ts';
import type { DashboardContext } from './module.ts';
import { clusterProblems, dashboard } from './service.ts';

const tool = toolsOf<DashboardContext>();

/** The dashboard's tools: the cluster at a glance, and everything wrong in it as one list. */
export const dashboardTools = [
  tool({
    name: 'get_dashboard',
    title: 'Cluster dashboard',
    description:
      'The cluster at a glance: platform and version, pod health (failing pods by kubectl status), problems one per object and grouped by reason with counts (failing objects, expiring certificates, danger findings of the audit), counts per kind and recent events (routine ones folded per source).',
    input: { namespace },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      return dashboard(ctx, view, await readAuditSettings(ctx));
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
];
