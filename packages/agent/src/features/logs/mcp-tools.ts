import { z } from 'zod';
import type { SharedServices } from '../../module.ts';
import { container, grep, limit, logLevel, logSince, name, requiredNamespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactText } from '../../scope/redact.ts';
import { diagnose, diagnosedKinds } from './diagnose.ts';
import { grepped, leveled, shownLines } from './grepped.ts';
import type { LogsContext } from './module.ts';
import { readPodLog, sinceSeconds } from './service.ts';
import { readWorkloadLogs } from './workload-tail.ts';

/** What the header says of the filters asked for: the level and the grep pattern. */
const filtersSaid = (args: { grep?: string; level?: string }) =>
  `${args.level ? ` at level ${args.level} or worse` : ''}${args.grep ? ` matching /${args.grep}/i` : ''}`;

const tool = toolsOf<LogsContext, Pick<SharedServices, 'objectViews'>>();

/**
 * The tools that read logs: a pod's, a workload's pods', and a diagnosis that ends with the most troubled pod's.
 */
export const logTools = [
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
      level: logLevel,
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
        args.level,
      );
      return [
        `# ${log.namespace}/${log.pod} container ${log.container} (containers: ${log.containers.join(', ')}); ${lines.length} lines${filtersSaid(args)}`,
        ...lines,
      ].join('\n');
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
      level: logLevel,
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
      const atLevel = leveled(tail.lines, args.level, (l) => l.line);
      const lines = (await grepped(atLevel, args.grep, (l) => l.line)).map(
        (l) => `[${l.pod}/${l.container}] ${redactText(l.line)}`,
      );
      return [
        `# ${tail.kind} ${tail.namespace}/${tail.name}: pods ${tail.pods.join(', ') || 'none with logs'}${tail.podsLeftOut > 0 ? ` (${tail.podsLeftOut} more left out)` : ''}; ${lines.length} lines${filtersSaid(args)}`,
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
    run: (args, { ctx, uses, caller, now }) =>
      diagnose(
        ctx,
        uses.objectViews,
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
