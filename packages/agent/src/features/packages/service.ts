import { type CallerView, viewReader } from '../../http/caller-view.ts';
import type { Health } from '../../kube/health.ts';
import { latestRevisions, type ReleaseDecoder } from '../../scope/helm-releases.ts';
import {
  type Contributor,
  fromApplication,
  fromCrd,
  fromFlux,
  fromRelease,
  fromWorkload,
  type Source,
} from './contributors.ts';
import { mergePackages, type PackageRow } from './merge.ts';
import type { PackagesContext } from './module.ts';

export interface PackagesQuery {
  namespace?: string;
  source?: Source;
  health?: Health;
}

const workloadKinds = ['Deployment', 'StatefulSet', 'DaemonSet'];

/**
 * Every package the cluster shows signs of, from the cache through the caller's view: Helm release Secrets
 * (only for callers who may list Secrets), workloads a chart labelled, CRDs, Argo CD Applications and Flux
 * HelmReleases and Kustomizations. Kinds still loading are named in `loading`; their rows come when they do.
 */
export function listPackages(
  ctx: PackagesContext,
  decoder: ReleaseDecoder,
  view: CallerView,
  query: PackagesQuery,
): { packages: PackageRow[]; total: number; loading: string[]; unreadable: number } {
  ctx.cluster.resources();
  const { get, loading } = viewReader(ctx, view);
  const contributors: Contributor[] = [];
  let unreadable = 0;
  for (const secret of latestRevisions(get('', 'Secret'))) {
    try {
      contributors.push(fromRelease(decoder.decode(secret), secret));
    } catch {
      unreadable += 1;
    }
  }
  for (const kind of workloadKinds) {
    for (const workload of get('apps', kind)) {
      const contributor = fromWorkload(workload);
      if (contributor) contributors.push(contributor);
    }
  }
  for (const crd of get('apiextensions.k8s.io', 'CustomResourceDefinition')) {
    const contributor = fromCrd(crd);
    if (contributor) contributors.push(contributor);
  }
  contributors.push(...get('argoproj.io', 'Application').map(fromApplication));
  contributors.push(
    ...[
      ...get('helm.toolkit.fluxcd.io', 'HelmRelease'),
      ...get('kustomize.toolkit.fluxcd.io', 'Kustomization'),
    ].map(fromFlux),
  );
  const packages = mergePackages(contributors).filter(
    (row) =>
      (!query.namespace || row.namespace === query.namespace) &&
      (!query.source || row.sources.includes(query.source)) &&
      (!query.health || row.health === query.health),
  );
  return { packages, total: packages.length, loading: [...new Set(loading)], unreadable };
}
