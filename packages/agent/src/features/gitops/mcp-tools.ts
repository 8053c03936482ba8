import { badRequest } from '@binnacle/common/server';
import { z } from 'zod';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { name, requiredNamespace as namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { refreshApplication, setAutomatedSync, syncApplication, terminateOperation } from './argocd.ts';
import { fluxKind, fluxKinds, reconcileFlux, setFluxSuspended, syncWithSource } from './flux.ts';
import type { GitopsContext } from './module.ts';

const tool = toolsOf<GitopsContext>();

/**
 * The GitOps tool, which changes the cluster as the controllers' own tools do: run as the caller, audited and
 * recorded in the timeline with the caller as actor.
 */
export const gitopsTools = [
  tool({
    name: 'manage_gitops',
    title: 'Argo CD and Flux actions',
    description:
      "Argo CD Applications: sync, refresh, terminate (the running operation), suspend or resume (automated sync). Flux objects (Kustomization, HelmRelease, GitRepository, OCIRepository, HelmRepository, Bucket): reconcile, sync-with-source, suspend or resume. The object changes are those of the controllers' own tools.",
    input: {
      tool: z.enum(['argocd', 'fluxcd']),
      action: z.enum(['sync', 'refresh', 'terminate', 'suspend', 'resume', 'reconcile', 'sync-with-source']),
      namespace,
      name,
      kind: z.string().max(63).optional().describe('Flux kind (required for fluxcd)'),
      hard: z.boolean().default(false).describe('argocd refresh: hard'),
      prune: z.boolean().optional().describe('argocd sync'),
      revision: z.string().max(253).optional().describe('argocd sync: revision to sync to'),
    },
    writes: true,
    async run(args, { ctx, caller }) {
      const { namespace: ns, name: app } = args;
      if (args.tool === 'argocd') {
        const target = { kind: 'Application', group: 'argoproj.io', namespace: ns, name: app };
        const actor = caller?.user ?? (await ctx.cluster.identity()).user;
        const work = (): Promise<ActionOutcome> => {
          switch (args.action) {
            case 'sync':
              return syncApplication(
                ctx,
                ns,
                app,
                { prune: args.prune, revision: args.revision },
                actor,
                caller,
              );
            case 'refresh':
              return refreshApplication(ctx, ns, app, args.hard, caller);
            case 'terminate':
              return terminateOperation(ctx, ns, app, caller);
            case 'suspend':
            case 'resume':
              return setAutomatedSync(ctx, ns, app, args.action === 'resume', caller);
            default:
              throw badRequest(
                `argocd takes sync, refresh, terminate, suspend or resume, not ${args.action}`,
              );
          }
        };
        return performAction<ActionOutcome>(ctx, caller, args.action, target, work);
      }
      if (!args.kind) throw badRequest(`kind is required for fluxcd: ${Object.keys(fluxKinds).join(', ')}`);
      const target = { kind: fluxKind(args.kind), namespace: ns, name: app };
      const work = (): Promise<ActionOutcome> => {
        switch (args.action) {
          case 'reconcile':
            return reconcileFlux(ctx, target, caller);
          case 'sync-with-source':
            return syncWithSource(ctx, target, caller);
          case 'suspend':
          case 'resume':
            return setFluxSuspended(ctx, target, args.action === 'suspend', caller);
          default:
            throw badRequest(
              `fluxcd takes reconcile, sync-with-source, suspend or resume, not ${args.action}`,
            );
        }
      };
      return performAction<ActionOutcome>(
        ctx,
        caller,
        args.action,
        { ...target, group: fluxKinds[target.kind] },
        work,
      );
    },
  }),
];
