import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { auditReport } from '../../scope/audit/report.ts';
import { limit, namespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import type { AuditContext } from './module.ts';

const tool = toolsOf<AuditContext>();

/** The audit's tool: its findings, most dangerous first. */
export const auditTools = [
  tool({
    name: 'get_cluster_audit',
    title: 'Best-practice audit',
    description:
      'Findings of the best-practice audit (Security, Reliability, Efficiency), most dangerous first, each with how to fix it.',
    input: {
      namespace,
      category: z.enum(['Security', 'Reliability', 'Efficiency']).optional(),
      severity: z.enum(['danger', 'warning']).optional(),
      limit: limit(30, 100),
    },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const settings = await readAuditSettings(ctx);
      const run = ctx.audit.run({ namespaces: view.namespaces, settings });
      const visible = (k?: string) => !view.hiddenKinds.includes(k ?? '');
      const findings = run.findings.filter(
        (f) =>
          visible(f.kind) &&
          (!args.category || f.category === args.category) &&
          (!args.severity || f.severity === args.severity),
      );
      const report = auditReport(
        run.audited.filter((o) => visible(o.kind)),
        findings,
        run.loading,
        settings.disabledChecks,
      );
      const shown = report.findings.slice(0, args.limit);
      const used = new Set(shown.map((f) => f.checkId));
      return {
        summary: report.summary,
        total: report.findings.length,
        findings: shown,
        checks: Object.fromEntries(
          [...used].map((id) => [
            id,
            { title: report.checks[id]?.title, remediation: report.checks[id]?.remediation },
          ]),
        ),
      };
    },
  }),
];
