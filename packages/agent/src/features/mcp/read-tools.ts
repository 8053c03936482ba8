import { z } from 'zod';
import { callerView, visibleNamespaces } from '../../http/caller-view.ts';
import { auditReport } from '../../scope/audit/report.ts';
import { kubeEvents } from '../../scope/events.ts';
import { ReleaseDecoder } from '../../scope/helm-releases.ts';
import { redactText } from '../../scope/redact.ts';
import { readAuditSettings } from '../../scope/settings.ts';
import { aiGet, aiList } from '../ai/service.ts';
import { dashboard } from '../dashboard/service.ts';
import { readPodLog, sinceSeconds } from '../logs/service.ts';
import { pkgmgrDashboard } from '../pkgmgr/service.ts';
import { namespaces } from '../resources/catalog.ts';
import { changes } from '../timeline/service.ts';
import {
  container,
  grep,
  group,
  kind,
  limit,
  logSince,
  name,
  namespace,
  requiredNamespace,
  scope,
} from './args.ts';
import { edgeLine, eventRow, nodeLine, reducedNote, shownLines } from './rows.ts';
import { type Tool, tool } from './tool.ts';

/** A time or a duration back from now, as the timeline takes it. */
const since = z
  .string()
  .max(64)
  .optional()
  .describe('RFC 3339 time or a duration back from now (90s, 15m, 2h)');

const decoder = new ReleaseDecoder();

/** The tools that read: what an assistant asks first when something is wrong. */
export const readTools: Tool[] = [
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
    name: 'list_namespaces',
    title: 'Namespaces',
    description: 'The namespaces you may see, with their status.',
    input: {},
    async run(_args, { ctx, caller }) {
      return namespaces(ctx, await callerView(ctx, caller));
    },
  }),
  tool({
    name: 'list_resources',
    title: 'List resources',
    description:
      'Objects of a kind, redacted (Secret values never appear): compact gives one line each, summary the fields a table shows, detail the whole objects.',
    input: {
      kind,
      namespace,
      group,
      label_selector: z.string().max(1024).optional().describe('e.g. app=web,tier!=cache'),
      verbosity: z.enum(['compact', 'summary', 'detail']).default('compact'),
      limit: limit(50, 200),
    },
    run: (args, { ctx, caller, now }) =>
      aiList(
        ctx,
        caller,
        {
          kind: args.kind,
          group: args.group,
          namespaces: scope(args.namespace),
          labelSelector: args.label_selector,
          verbosity: args.verbosity,
          limit: args.limit,
        },
        now,
      ),
  }),
  tool({
    name: 'get_resource',
    title: 'Get a resource',
    description:
      'One object, redacted, with its recent events; namespace omitted for a cluster-scoped kind (nodes, namespaces).',
    input: {
      kind,
      name,
      namespace,
      group,
      verbosity: z.enum(['compact', 'summary', 'detail']).default('detail'),
    },
    async run(args, { ctx, caller, now }) {
      const found = await aiGet(
        ctx,
        caller,
        {
          kind: args.kind,
          namespace: args.namespace ?? '_',
          name: args.name,
          group: args.group,
          verbosity: args.verbosity,
        },
        now,
      );
      const resource = ctx.cluster.resolve(args.kind, args.group);
      const view = await callerView(ctx, caller, scope(args.namespace));
      const events = kubeEvents(ctx, {
        namespaces: view.namespaces,
        kind: resource.kind,
        name: args.name,
        limit: 10,
      });
      return { ...found, events: events.items.map(eventRow) };
    },
  }),
  tool({
    name: 'get_events',
    title: 'Kubernetes events',
    description: 'Recent Kubernetes events, newest first; Warning ones are usually what matters.',
    input: {
      namespace,
      type: z.enum(['Normal', 'Warning']).optional(),
      kind: z.string().max(253).optional().describe('of the involved object'),
      name: z.string().max(253).optional().describe('of the involved object'),
      limit: limit(20, 100),
    },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const events = kubeEvents(ctx, { ...args, namespaces: view.namespaces });
      return { total: events.total, events: events.items.map(eventRow) };
    },
  }),
  tool({
    name: 'get_pod_logs',
    title: 'Pod logs',
    description:
      "The last lines of a pod's container (credentials scrubbed), optionally only those matching grep.",
    input: {
      namespace: requiredNamespace,
      name,
      container: container.describe('default: the first container'),
      tail_lines: limit(200, 2000),
      grep,
      since: logSince,
      previous: z.boolean().default(false).describe("the previous run's log (after a restart)"),
    },
    async run(args, { ctx, caller }) {
      const log = await readPodLog(ctx, args.namespace, args.name, {
        container: args.container,
        tail: args.tail_lines,
        sinceSeconds: sinceSeconds(args.since, 'since'),
        previous: args.previous,
        as: caller,
      });
      const lines = await shownLines(
        log.lines.map((l) => l.line),
        args.grep,
      );
      return [
        `# ${log.namespace}/${log.pod} container ${log.container} (containers: ${log.containers.join(', ')}); ${lines.length} lines${args.grep ? ` matching /${args.grep}/i` : ''}`,
        ...lines,
      ].join('\n');
    },
  }),
  tool({
    name: 'get_changes',
    title: 'Change timeline',
    description:
      'What changed recently: objects created, updated (with the fields that changed) and deleted, and actions taken through Binnacle, newest first.',
    input: {
      namespace,
      kind: z.string().max(253).optional().describe('a Kind, e.g. Deployment'),
      name: z.string().max(253).optional(),
      since: since.default('1h'),
      limit: limit(20, 50),
    },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const page = await changes(ctx.timeline, {
        ...view,
        kinds: args.kind ? [args.kind] : undefined,
        name: args.name,
        since: args.since,
        limit: args.limit,
      });
      return page.events.map((e) => ({
        time: e.timestamp,
        what: e.source === 'action' ? 'action' : e.eventType,
        object: `${e.kind} ${e.namespace ? `${e.namespace}/` : ''}${e.name}`,
        ...(e.health ? { health: e.health } : {}),
        ...(e.reason ? { reason: e.reason } : {}),
        ...(e.message ? { message: redactText(e.message) } : {}),
        ...(e.diff ? { diff: JSON.parse(redactText(JSON.stringify(e.diff))) as unknown } : {}),
        ...(e.actor ? { actor: e.actor } : {}),
      }));
    },
  }),
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
  tool({
    name: 'list_helm_releases',
    title: 'Helm releases',
    description:
      'Helm releases (newest revision each) with chart, version, status and when they were deployed.',
    input: { namespace },
    async run(args, { ctx, caller }) {
      const shown = await visibleNamespaces(
        ctx,
        caller,
        { group: '', resource: 'secrets' },
        scope(args.namespace),
      );
      return pkgmgrDashboard(ctx, decoder, shown);
    },
  }),
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
];
