import { callerView, viewReader, visibleNamespaces } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';
import { deprecations } from '../../scope/audit/checks/deprecations.ts';
import { ReleaseDecoder } from '../../scope/helm-releases.ts';
import { type ApiServerMetrics, type RequestedApi, requestedDeprecatedApis } from './apiserver-metrics.ts';
import { gitopsUses, objectUses } from './cached-uses.ts';
import { type Finding, findingOrder, type Judge, judged, type Use } from './findings.ts';
import { helmUses } from './helm-uses.ts';
import { apiLookup, crdDeprecations } from './lookup.ts';
import type { UpgradeContext } from './module.ts';
import { servedUses } from './served-uses.ts';
import { currentRelease, nextRelease, readinessStatus } from './versions.ts';

const decoder = new ReleaseDecoder();
const listedKinds = deprecations.flatMap((d) => d.kinds);

export interface ReadinessQuery {
  /** `1.N`; default the minor after the cluster's. */
  target?: string;
  limit?: number;
}

export interface ReadinessReport {
  current: string;
  target: string;
  summary: { alreadyRemoved: number; removedInTarget: number; deprecated: number };
  total: number;
  findings: Finding[];
  apiServerMetrics: ApiServerMetrics;
  loading: string[];
}

const joined = (group: string, version: string) => (group ? `${group}/${version}` : version);

/**
 * The API server's own count of deprecated requests as findings: the table's word where it has one, else the
 * gauge's removal release and the group's preferred version as the replacement.
 */
function metricFindings(ctx: UpgradeContext, judge: Judge, requested: RequestedApi[]): Finding[] {
  return requested.map((r) => {
    const resource = ctx.cluster.resources().find((s) => s.group === r.group && s.plural === r.resource);
    const use: Use = {
      source: 'apiserver-metrics',
      apiVersion: joined(r.group, r.version),
      kind: resource?.kind ?? r.resource,
      resource: r.subresource ? `${r.resource}/${r.subresource}` : r.resource,
    };
    const preferred = resource ? joined(resource.group, resource.version) : undefined;
    return (
      judged(judge, use) ?? {
        ...use,
        ...(r.removedRelease ? { removedIn: r.removedRelease } : {}),
        ...(preferred && preferred !== use.apiVersion ? { replacement: preferred } : {}),
        status: readinessStatus(r.removedRelease, judge.current, judge.target),
      }
    );
  });
}

/**
 * What an upgrade to `target` breaks (docs/upgrade-readiness.md): the uses of removed and deprecated API versions
 * in live objects' last-applied manifests, Helm releases, GitOps sources and what the cluster serves, plus the
 * API server's count of deprecated requests; everything read as the caller may read it.
 */
export async function upgradeReadiness(
  ctx: UpgradeContext,
  caller: Impersonation | undefined,
  query: ReadinessQuery,
): Promise<ReadinessReport> {
  const current = currentRelease(ctx.cluster.version);
  const target = query.target ?? nextRelease(current);
  const view = await callerView(ctx, caller);
  const reader = viewReader(ctx, view);
  const secretNamespaces = await visibleNamespaces(
    ctx,
    caller,
    { group: '', resource: 'secrets' },
    view.namespaces,
  );
  const secrets = viewReader(ctx, { namespaces: secretNamespaces, hiddenKinds: [] });
  const crds = reader.get('apiextensions.k8s.io', 'CustomResourceDefinition');
  const judge: Judge = { lookup: apiLookup(crds), current, target };
  const kinds = new Set([...listedKinds, ...crds.flatMap(crdDeprecations).map((d) => d.kind)]);
  const [served, metrics] = await Promise.all([
    servedUses(ctx.cluster.client, crds),
    requestedDeprecatedApis(ctx.cluster.client, caller),
  ]);
  const uses = [
    ...objectUses(reader.get, ctx.cluster.cache.resources, kinds),
    ...helmUses(ctx.cluster, decoder, secrets.get('', 'Secret')),
    ...gitopsUses(reader.get),
    ...served,
  ];
  const findings = [
    ...uses.flatMap((use) => judged(judge, use) ?? []),
    ...metricFindings(ctx, judge, metrics.requested),
  ].sort(findingOrder);
  const count = (status: Finding['status']) => findings.filter((f) => f.status === status).length;
  return {
    current,
    target,
    summary: {
      alreadyRemoved: count('already-removed'),
      removedInTarget: count('removed-in-target'),
      deprecated: count('deprecated'),
    },
    total: findings.length,
    findings: findings.slice(0, query.limit ?? 1000),
    apiServerMetrics: metrics,
    loading: [...new Set([...reader.loading, ...secrets.loading])],
  };
}
