import { z } from 'zod';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { SelectionContext } from './module.ts';
import { maxYamlChars } from './schemas.ts';
import { selectionImpact } from './service.ts';

const tool = toolsOf<SelectionContext>();

/** What a label or selector edit would change in what selects which pods, before it is made. */
export const selectionTools = [
  tool({
    name: 'selection_impact',
    title: 'Selection impact of an edit',
    description:
      "Before changing labels or selectors: which Services (endpoints), PodDisruptionBudgets, NetworkPolicies (the pods they apply to, their ingress/egress peers), workloads and HPAs would gain or lose pods if this one object were applied. The object is dry-run by the API server (server-side apply, nothing written); a workload's new pod template relabels its current pods as its rollout would. Works for Pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, Services, PDBs, NetworkPolicies, HPAs and Namespaces.",
    input: {
      yaml: z
        .string()
        .min(1)
        .max(maxYamlChars)
        .describe('the whole object as it would be applied (YAML or JSON)'),
      namespace: z
        .string()
        .min(1)
        .max(63)
        .optional()
        .describe('for a namespaced object that names none (default "default")'),
    },
    run: (args, { ctx, caller }) => selectionImpact(ctx, caller, args),
  }),
];
