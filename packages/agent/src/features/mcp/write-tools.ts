import type { KubeObject } from '@binnacle/common';
import { badRequest, jsonDepth, maxNestingDepth } from '@binnacle/common/server';
import { z } from 'zod';
import { objectPath } from '../../kube/discovery.ts';
import { stripObject } from '../../kube/objects.ts';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { redactObject } from '../../scope/redact.ts';
import { setCronJobSuspended, triggerCronJob } from '../cronjobs/service.ts';
import {
  refreshApplication,
  setAutomatedSync,
  syncApplication,
  terminateOperation,
} from '../gitops/argocd.ts';
import { fluxKind, fluxKinds, reconcileFlux, setFluxSuspended, syncWithSource } from '../gitops/flux.ts';
import { drainNode, setSchedulable } from '../nodes/service.ts';
import { applyDocuments, fieldManager } from '../resources/apply.ts';
import { workloadResource } from '../workloads/kinds.ts';
import { restartWorkload, rollbackWorkload, scaleWorkload } from '../workloads/service.ts';
import { name, requiredNamespace as namespace } from './args.ts';
import { type Tool, tool } from './tool.ts';

/**
 * The tools that change the cluster: the same operations as the REST routes, run as the caller, audited and
 * recorded in the timeline with the caller as actor.
 */
export const writeTools: Tool[] = [
  tool({
    name: 'manage_workload',
    title: 'Restart, scale or roll back a workload',
    description:
      'Restarts (a new rollout), scales (replicas) or rolls back (to a revision; the previous one when absent) a Deployment, StatefulSet, DaemonSet or Argo Rollout.',
    input: {
      action: z.enum(['restart', 'scale', 'rollback']),
      kind: z.string().min(1).max(253).describe('deployment, statefulset, daemonset or rollout'),
      namespace,
      name,
      replicas: z.number().int().min(0).max(10_000).optional().describe('for scale'),
      revision: z.number().int().min(1).optional().describe('for rollback'),
    },
    writes: true,
    run(args, { ctx, caller }) {
      const w = { resource: workloadResource(ctx, args.kind), namespace: args.namespace, name: args.name };
      if (args.action === 'scale' && args.replicas === undefined)
        throw badRequest('replicas is required to scale');
      const target = { kind: w.resource.kind, group: w.resource.group, namespace: w.namespace, name: w.name };
      return performAction<ActionOutcome>(ctx, caller, args.action, target, () => {
        if (args.action === 'restart') return restartWorkload(ctx, w, caller);
        if (args.action === 'scale') return scaleWorkload(ctx, w, args.replicas as number, caller);
        return rollbackWorkload(ctx, w, args.revision, caller);
      });
    },
  }),
  tool({
    name: 'manage_cronjob',
    title: 'Trigger, suspend or resume a CronJob',
    description: 'Runs a CronJob now (a Job from its template), or suspends or resumes its schedule.',
    input: { action: z.enum(['trigger', 'suspend', 'resume']), namespace, name },
    writes: true,
    run(args, { ctx, caller }) {
      const target = { kind: 'CronJob', group: 'batch', namespace: args.namespace, name: args.name };
      return performAction<ActionOutcome>(ctx, caller, args.action, target, () =>
        args.action === 'trigger'
          ? triggerCronJob(ctx, args.namespace, args.name, caller)
          : setCronJobSuspended(ctx, args.namespace, args.name, args.action === 'suspend', caller),
      );
    },
  }),
  tool({
    name: 'manage_node',
    title: 'Cordon, uncordon or drain a node',
    description:
      'Cordons or uncordons a node, or drains it as kubectl does (evictions honour PodDisruptionBudgets; DaemonSet pods stay).',
    input: {
      action: z.enum(['cordon', 'uncordon', 'drain']),
      name,
      delete_empty_dir_data: z.boolean().default(true).describe('drain: evict pods with emptyDir volumes'),
      force: z.boolean().default(false).describe('drain: also pods no controller owns'),
      timeout: z.number().int().min(1).max(600).default(60).describe('drain: seconds to wait'),
    },
    writes: true,
    run(args, { ctx, caller }) {
      const target = { kind: 'Node', group: '', name: args.name };
      return performAction<ActionOutcome>(ctx, caller, args.action, target, () =>
        args.action === 'drain'
          ? drainNode(
              ctx,
              args.name,
              {
                deleteEmptyDirData: args.delete_empty_dir_data,
                force: args.force,
                timeout: `${args.timeout}s`,
              },
              AbortSignal.timeout((args.timeout + 30) * 1000),
              caller,
            )
          : setSchedulable(ctx, args.name, args.action === 'uncordon', caller),
      );
    },
  }),
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
  tool({
    name: 'apply_resource',
    title: 'Apply YAML',
    description:
      'Applies one or more YAML documents with server-side apply, as kubectl apply --server-side does; every document is dry-run first, so a bad one applies nothing. Use dry_run to see what would change.',
    input: {
      yaml: z.string().min(1).max(1_000_000).describe('one or more documents separated by ---'),
      namespace: z.string().min(1).max(63).optional().describe('for namespaced documents that name none'),
      dry_run: z.boolean().default(false),
      force: z.boolean().default(true).describe('take over fields another manager set'),
    },
    writes: true,
    async run(args, { ctx, caller }) {
      return {
        results: await applyDocuments(ctx, args.yaml, {
          namespace: args.namespace,
          dryRun: args.dry_run,
          force: args.force,
          as: caller,
        }),
      };
    },
  }),
  tool({
    name: 'patch_resource',
    title: 'Patch a resource',
    description:
      'Patches one object as kubectl patch does: merge (default), strategic (built-in kinds) or json (a list of RFC 6902 operations). Use dry_run to see the result without changing anything.',
    input: {
      kind: z.string().min(1).max(253),
      name,
      namespace: z.string().min(1).max(63).optional().describe('required for a namespaced kind'),
      group: z.string().max(253).optional(),
      patch_type: z.enum(['merge', 'strategic', 'json']).default('merge'),
      patch: z.string().min(2).max(1_000_000).describe('the patch as JSON'),
      dry_run: z.boolean().default(false),
    },
    writes: true,
    run(args, { ctx, caller }) {
      const resource = ctx.cluster.resolve(args.kind, args.group);
      if (resource.namespaced && !args.namespace)
        throw badRequest(`namespace is required for ${resource.plural}`);
      const namespace = resource.namespaced ? args.namespace : undefined;
      // The patch is sent on with JSON.stringify, which recurses: bounded like every JSON body (ADR 0046).
      if (jsonDepth(args.patch) > maxNestingDepth)
        throw badRequest(`patch nests deeper than ${maxNestingDepth} levels`);
      let patch: unknown;
      try {
        patch = JSON.parse(args.patch);
      } catch (error) {
        throw badRequest(`patch is not JSON: ${(error as Error).message}`);
      }
      if ((args.patch_type === 'json') !== Array.isArray(patch))
        throw badRequest(
          args.patch_type === 'json'
            ? 'patch must be a JSON array of operations for a json patch'
            : 'patch must be a JSON object',
        );
      const target = { kind: resource.kind, group: resource.group, namespace, name: args.name };
      return performAction<ActionOutcome>(
        ctx,
        caller,
        'patch',
        target,
        async () => {
          const after = await ctx.cluster.client.request<KubeObject>({
            method: 'PATCH',
            path: objectPath(resource, args.name, namespace),
            query: { fieldManager, dryRun: args.dry_run ? 'All' : undefined },
            contentType: patchTypes[args.patch_type],
            body: JSON.stringify(patch),
            as: caller,
          });
          return {
            message: `${args.dry_run ? 'would patch' : 'patched'} ${resource.kind} ${namespace ? `${namespace}/` : ''}${args.name}`,
            uid: after.metadata?.uid,
            dryRun: args.dry_run,
            resource: redactObject(stripObject(after)),
          };
        },
        { dryRun: args.dry_run },
      );
    },
  }),
];

const patchTypes = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
} as const;
