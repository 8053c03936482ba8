import { z } from 'zod';
import { limit } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { UpgradeContext } from './module.ts';
import { upgradeReadiness } from './service.ts';

const tool = toolsOf<UpgradeContext>();

/** Upgrade readiness as a tool: what a Kubernetes upgrade breaks, most urgent first. */
export const upgradeTools = [
  tool({
    name: 'upgrade_readiness',
    title: 'Kubernetes upgrade readiness',
    description:
      "What upgrading the cluster to a Kubernetes release breaks: every live object (by its last-applied manifest), Helm release manifest, Argo CD Application or Flux Kustomization and served API version that uses an API version the release removes or deprecates, with the replacement, plus the API server's own apiserver_requested_deprecated_apis (clients still calling them). Most urgent first.",
    input: {
      target: z
        .string()
        .regex(/^1\.\d{1,3}$/)
        .optional()
        .describe('the release to upgrade to, 1.N (default: the next minor)'),
      limit: limit(50, 500),
    },
    run: (args, { ctx, caller }) => upgradeReadiness(ctx, caller, args),
  }),
];
