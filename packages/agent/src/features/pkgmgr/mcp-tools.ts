import { z } from 'zod';
import { visibleNamespaces } from '../../http/caller-view.ts';
import { releaseRevision } from '../../scope/helm-history.ts';
import { ReleaseDecoder, type StoredRelease } from '../../scope/helm-releases.ts';
import { name, namespace, requiredNamespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { redactManifest, redactText, redactValues } from '../../scope/redact.ts';
import type { PkgmgrContext } from './module.ts';
import { releaseDetail, releaseDiff, releaseRevisionsFor, releaseValues } from './release-detail.ts';
import { pkgmgrDashboard } from './service.ts';

const tool = toolsOf<PkgmgrContext>();
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
      "One Helm release: its newest revision, the objects it manages with their health, hooks and notes; with include, its values (user-supplied and computed, credentials redacted), its revision history, and a diff of two revisions' manifests (Secret values never shown).",
    input: {
      namespace: requiredNamespace,
      name,
      include: z
        .string()
        .regex(
          /^(values|history|diff)(,(values|history|diff))*$/,
          'a comma-separated list of values, history, diff',
        )
        .optional()
        .describe('comma-separated: values, history, diff'),
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
      };
    },
  }),
];
