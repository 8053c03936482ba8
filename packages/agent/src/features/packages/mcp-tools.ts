import { z } from 'zod';
import { callerView } from '../../http/caller-view.ts';
import { ReleaseDecoder } from '../../scope/helm-releases.ts';
import { namespace, scope } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { sources } from './contributors.ts';
import type { PackagesContext } from './module.ts';
import { listPackages } from './service.ts';

const tool = toolsOf<PackagesContext>();
const decoder = new ReleaseDecoder();

/** The packages' tool: what is installed, from every source. */
export const packageTools = [
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
