import { z } from 'zod';
import { requiredNamespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { trafficWindowPattern } from '../../scope/traffic/window.ts';
import type { NetpolContext, NetpolUses } from './module.ts';
import { impactLimits, policyImpact, policyRefPattern, proposeForNamespace } from './service.ts';

const tool = toolsOf<NetpolContext, NetpolUses>();
const since = z
  .string()
  .regex(new RegExp(trafficWindowPattern))
  .optional()
  .describe('the window of observed traffic back from now: 10s to 3600s, 1m to 60m or 1h (default 5m)');

/** What-if questions on NetworkPolicies against the traffic observed (docs/network-policies.md). */
export const netpolTools = [
  tool({
    name: 'network_policy_impact',
    title: 'NetworkPolicy impact on observed traffic',
    description:
      'Before creating, editing or deleting NetworkPolicies: which flows observed in the window (Hubble, Istio, Caretta, Beyla) the change would newly deny or newly allow, per workload pair and port, with the deciding rule (policy, ingress/egress, rule index), and each namespace’s workload reachability before and after. Changes nothing.',
    input: {
      yaml: z
        .string()
        .max(impactLimits.yamlChars)
        .optional()
        .describe(
          'new or edited networking.k8s.io/v1 NetworkPolicies, one YAML document each, with metadata.namespace',
        ),
      delete: z
        .array(z.string().regex(new RegExp(policyRefPattern)))
        .max(impactLimits.policies)
        .optional()
        .describe('NetworkPolicies deleted, as <namespace>/<name>'),
      since,
    },
    run: (args, { ctx, uses, caller }) => policyImpact(ctx, uses.trafficPairs, caller, args),
  }),
  tool({
    name: 'propose_network_policies',
    title: 'Propose least-privilege NetworkPolicies',
    description:
      'NetworkPolicies for a namespace that allow exactly the traffic observed in the window: per workload, ingress from the peers that called it and egress to the peers it called, on the ports seen; as YAML with its impact, and the observed flows it leaves out with why. Applies nothing: pass the YAML to apply_resource to apply it.',
    input: {
      namespace: requiredNamespace,
      since,
      workloads: z
        .array(z.string().min(5).max(600))
        .min(1)
        .max(impactLimits.workloads)
        .optional()
        .describe('only these workloads (deployment/<ns>/<name>); default every workload of the namespace'),
    },
    run: (args, { ctx, uses, caller }) => proposeForNamespace(ctx, uses.trafficPairs, caller, args),
  }),
];
