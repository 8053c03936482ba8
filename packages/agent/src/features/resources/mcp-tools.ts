import { type KubeObject, searchLimits } from '@binnacle/common';
import { badRequest, jsonDepth, maxNestingDepth } from '@binnacle/common/server';
import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { objectPath } from '../../kube/discovery.ts';
import { stripObject } from '../../kube/objects.ts';
import { type ActionOutcome, performAction } from '../../scope/actions.ts';
import { limit, name, namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactObject } from '../../scope/redact.ts';
import { fieldManager } from '../../scope/server-side-apply.ts';
import { applyDocuments } from './apply.ts';
import { namespaces } from './catalog.ts';
import type { ResourcesContext } from './module.ts';
import { searchObjects } from './search.ts';

const tool = toolsOf<ResourcesContext>();

/**
 * The tools about objects of any kind: the namespaces, a search, and applying or patching objects (those two
 * change the cluster, run as the caller, audited and recorded in the timeline with the caller as actor).
 */
export const resourceTools = [
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
    name: 'search',
    title: 'Search the cluster',
    description:
      'Free-text search over the objects you may see: every word must appear in the name, namespace, kind, a label (key=value) or an annotation value; best name matches first, each as a one-line summary "Kind namespace/name: state".',
    input: {
      query: z
        .string()
        .min(1)
        .max(searchLimits.maxQueryChars)
        .describe('words to look for, e.g. "checkout shop"'),
      limit: limit(searchLimits.defaultLimit, searchLimits.maxLimit),
      namespace,
      kind: z.string().min(1).max(253).optional().describe('only this kind: pods, deploy, Service …'),
    },
    async run(args, { ctx, caller, now }) {
      const result = await searchObjects(ctx, caller, args, now);
      return {
        total: result.total,
        hits: result.hits.map((hit) => hit.summary),
        ...(result.loading.length > 0 ? { loading: result.loading } : {}),
      };
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
