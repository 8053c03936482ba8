import type { KubeObject } from '@binnacle/common';
import type { Cluster } from '../../kube/cluster.ts';
import { manifestResources, type ReleaseResource } from '../../scope/helm-history.ts';
import { latestRevisions, type ReleaseDecoder, type StoredRelease } from '../../scope/helm-releases.ts';
import type { Use } from './findings.ts';

const parsed = new WeakMap<StoredRelease, ReleaseResource[]>();

/**
 * A decoded release's objects, hooks' included (a pre-upgrade Job is applied on every upgrade too), parsed once
 * per decoded revision (the decoder keeps one per resourceVersion).
 */
function objectsOf(cluster: Cluster, release: StoredRelease): ReleaseResource[] {
  const known = parsed.get(release);
  if (known) return known;
  const hooks = (release.hooks ?? []).map((h) => h.manifest ?? '').filter(Boolean);
  const manifest = [release.manifest ?? '', ...hooks].join('\n---\n');
  const objects = manifestResources({ cluster }, { ...release, manifest });
  parsed.set(release, objects);
  return objects;
}

/**
 * The objects of every release's latest revision, at the apiVersion its manifest names: what `helm upgrade`
 * would apply again, and what a chart still written against a removed API breaks on. Uninstalled releases whose
 * history was kept are left out.
 */
export function helmUses(cluster: Cluster, decoder: ReleaseDecoder, secrets: KubeObject[]): Use[] {
  return latestRevisions(secrets)
    .filter((secret) => secret.metadata?.labels?.status !== 'uninstalled')
    .flatMap((secret) => {
      const release = decoder.decode(secret);
      const chart = release.chart?.metadata?.name;
      const owner = {
        namespace: release.namespace,
        name: release.name,
        revision: release.version,
        ...(chart ? { chart } : {}),
      };
      return objectsOf(cluster, release).map(
        (object): Use => ({
          source: 'helm',
          apiVersion: object.apiVersion,
          kind: object.kind,
          ...(object.namespace ? { namespace: object.namespace } : {}),
          name: object.name,
          release: owner,
        }),
      );
    });
}
