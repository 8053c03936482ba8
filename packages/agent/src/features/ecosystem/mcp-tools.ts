import {
  dnsSubdomainPattern,
  ecosystemActionKinds,
  pluginParameterNamePattern,
  pluginParametersMax,
  pluginParameterValueMax,
  postgresBackupMethods,
  postgresBackupTargets,
  qualifiedKind,
} from '@binnacle/common';
import { z } from 'zod';
import { name } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { runEcosystemAction } from './actions.ts';
import type { EcosystemContext } from './module.ts';

const tool = toolsOf<EcosystemContext>();

const kindsOf = (action: keyof typeof ecosystemActionKinds) =>
  ecosystemActionKinds[action].map(qualifiedKind).join(' or ');

/**
 * The ecosystem projects' actions as one tool (docs/ecosystem-actions.md): the same service as the routes, run as
 * the caller, audited and recorded on the timeline; a dry run changes nothing.
 */
export const ecosystemTools = [
  tool({
    name: 'manage_ecosystem',
    title: "Ecosystem projects' actions",
    description: `Acts on ecosystem projects' custom resources as their own CLIs do: renew (${kindsOf('renew')}, as cmctl renew), backup (${kindsOf('backup')}: velero backup create --from-schedule, kubectl cnpg backup), pause or resume (${kindsOf('pause')}: KEDA's pause annotations; replicas holds a ScaledObject's target), disrupt (${kindsOf('disrupt')}: deletes it, Karpenter drains its node), restart (${kindsOf('restart')}: kubectl cnpg restart). dry_run asks the API server to check the change and keep nothing.`,
    input: {
      action: z.enum(['renew', 'backup', 'pause', 'resume', 'disrupt', 'restart']),
      kind: z
        .string()
        .min(1)
        .max(253)
        .describe('the plural.group, plural or Kind: certificates.cert-manager.io, ScaledObject, nodeclaims'),
      namespace: z.string().min(1).max(63).optional().describe('absent for a NodeClaim (cluster-scoped)'),
      name,
      dry_run: z.boolean().default(false),
      replicas: z
        .number()
        .int()
        .min(0)
        .max(10_000)
        .optional()
        .describe('pause: hold a ScaledObject at this count'),
      backup_name: z
        .string()
        .min(1)
        .max(253)
        .optional()
        .describe('backup: the Backup name (default: by the time)'),
      method: z.enum(postgresBackupMethods).optional().describe('backup: CloudNativePG only'),
      plugin: z
        .string()
        .min(1)
        .max(253)
        .regex(new RegExp(dnsSubdomainPattern))
        .optional()
        .describe('backup: CloudNativePG only, with method plugin: the plugin that takes it'),
      plugin_parameters: z
        .record(
          z.string().regex(new RegExp(pluginParameterNamePattern)),
          z.string().max(pluginParameterValueMax),
        )
        .refine((parameters) => Object.keys(parameters).length <= pluginParametersMax, {
          message: `at most ${pluginParametersMax} parameters`,
        })
        .optional()
        .describe('backup: CloudNativePG only, with method plugin: what the plugin is given'),
      target: z.enum(postgresBackupTargets).optional().describe('backup: CloudNativePG only'),
      online: z.boolean().optional().describe('backup: CloudNativePG only'),
      immediate_checkpoint: z
        .boolean()
        .optional()
        .describe('backup: CloudNativePG only: start an online backup with an immediate checkpoint'),
      wait_for_archive: z
        .boolean()
        .optional()
        .describe('backup: CloudNativePG only: end an online backup once its last WAL file is archived'),
    },
    writes: true,
    run(args, { ctx, caller }) {
      return runEcosystemAction(
        ctx,
        caller,
        args.action,
        { kind: args.kind, namespace: args.namespace ?? '_', name: args.name },
        {
          dryRun: args.dry_run,
          replicas: args.replicas,
          name: args.backup_name,
          method: args.method,
          plugin: args.plugin,
          pluginParameters: args.plugin_parameters,
          target: args.target,
          online: args.online,
          immediateCheckpoint: args.immediate_checkpoint,
          waitForArchive: args.wait_for_archive,
        },
      );
    },
  }),
];
