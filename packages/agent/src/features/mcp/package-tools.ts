import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { ReleaseDecoder, type StoredRelease } from '../../scope/helm-releases.ts';
import { redactManifest, redactText, redactValues } from '../../scope/redact.ts';
import { sources } from '../packages/contributors.ts';
import { listPackages } from '../packages/service.ts';
import {
  releaseDetail,
  releaseDiff,
  releaseRevision,
  releaseRevisionsFor,
  releaseValues,
} from '../pkgmgr/release-detail.ts';
import { name, namespace, requiredNamespace, scope } from './args.ts';
import { type Tool, tool } from './tool.ts';

const decoder = new ReleaseDecoder();
const _parts = ['values', 'history', 'diff'] as const;
const revision = z.number().int().min(1).optional();

const redactedRelease = (release: StoredRelease): StoredRelease => ({
  ...release,
  manifest: redactManifest(release.manifest),
});

/** The tools about what is installed: Helm releases in depth, and packages from every source. */
export const packageTools: Tool[] = [
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
  tool({
    name: 'list_packages',
    title: 'Installed packages',
    description:
      'What is installed, one row per chart and release, merged from Helm releases, chart labels on workloads, CRDs, Argo CD Applications and Flux HelmReleases and Kustomizations, each with its version and health.',
    input: {
      namespace,
      source: z.enum(sources).optional().describe('only packages this source shows'),
      chart: z.string().min(1).max(253).optional().describe('only charts whose name contains this'),
    },
    async run(args, { ctx, caller }) {
      const view = await callerView(ctx, caller, scope(args.namespace));
      const listed = listPackages(ctx, decoder, view, {
        namespace: args.namespace,
        source: args.source,
      });
      const chart = args.chart?.toLowerCase();
      const packages = chart
        ? listed.packages.filter((p) => p.chart.toLowerCase().includes(chart))
        : listed.packages;
      return { ...listed, packages, total: packages.length };
    },
  }),
];
