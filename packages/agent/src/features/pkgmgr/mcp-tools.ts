import { z } from 'zod';
import { visibleNamespaces } from '../../http/caller-view.ts';
import { releaseRevision } from '../../scope/helm-history.ts';
import { ReleaseDecoder, type StoredRelease } from '../../scope/helm-releases.ts';
import { name, namespace, requiredNamespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactManifest, redactText, redactValues } from '../../scope/redact.ts';
import { hookDiagnostics } from './hook-diagnostics.ts';
import type { PkgmgrContext } from './module.ts';
import { releaseDetail, releaseDiff, releaseRevisionsFor, releaseValues } from './release-detail.ts';
import { pkgmgrDashboard } from './service.ts';

const tool = toolsOf<PkgmgrContext>();

/** Hook runs for an assistant: Helm's and the events' words can quote a credential, so they are redacted. */
const redactedHooks = (runs: Awaited<ReturnType<typeof hookDiagnostics>>) => ({
  ...runs,
  description: redactText(runs.description),
  hooks: runs.hooks.map((hook) => ({
    ...hook,
    hookEvents: hook.hookEvents.map((e) => ({ ...e, message: redactText(e.message) })),
    ...(hook.job?.condition
      ? {
          job: {
            ...hook.job,
            condition: { ...hook.job.condition, message: redactText(hook.job.condition.message) },
          },
        }
      : {}),
  })),
  rollbacks: runs.rollbacks.map((r) =>
    r.failed ? { ...r, failed: { ...r.failed, description: redactText(r.failed.description) } } : r,
  ),
});
const decoder = new ReleaseDecoder();
const revision = z.number().int().min(1).optional();

const redactedRelease = (release: StoredRelease): StoredRelease => ({
  ...release,
  manifest: redactManifest(release.manifest),
});

/** The tools about Helm releases: the newest revision of each, and one in depth. */
export const pkgmgrTools = [
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
    name: 'get_helm_release',
    title: 'A Helm release',
    description:
      "One Helm release: its newest revision, the objects it manages with their health, hooks and notes; with include, its values (user-supplied and computed, credentials redacted), its revision history, a diff of two revisions' manifests (Secret values never shown), and hooks: what each hook of the revision that explains the state did (a rolled-back failed upgrade's), its Job's condition, pods and events, with the rollbacks Helm made.",
    input: {
      namespace: requiredNamespace,
      name,
      include: z
        .string()
        .regex(
          /^(values|history|diff|hooks)(,(values|history|diff|hooks))*$/,
          'a comma-separated list of values, history, diff, hooks',
        )
        .optional()
        .describe('comma-separated: values, history, diff, hooks'),
      diff_revision_1: revision.describe('diff from this revision (default: the one before diff_revision_2)'),
      diff_revision_2: revision.describe('diff to this revision (default: the newest)'),
    },
    async run(args, { ctx, caller }) {
      const included = new Set(args.include?.split(','));
      const revisions = await releaseRevisionsFor(ctx, decoder, caller, args.namespace, args.name);
      const { history, notes, ...detail } = releaseDetail(ctx, revisions);
      const values = releaseValues(releaseRevision(revisions), true);
      return {
        ...detail,
        notes: redactText(notes),
        ...(included.has('history') ? { history } : {}),
        ...(included.has('values')
          ? {
              values: {
                revision: values.revision,
                userSupplied: redactValues(values.userSupplied),
                computed: redactValues(values.computed),
              },
            }
          : {}),
        ...(included.has('diff')
          ? { diff: releaseDiff(revisions.map(redactedRelease), args.diff_revision_1, args.diff_revision_2) }
          : {}),
        ...(included.has('hooks')
          ? { hookRuns: redactedHooks(await hookDiagnostics(ctx, caller, revisions)) }
          : {}),
      };
    },
  }),
];
