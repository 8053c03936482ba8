import type { KubeObject } from '@binnacle/common';
import type { ApiResource } from '../../kube/discovery.ts';
import { appliedApiVersion } from '../../kube/objects.ts';
import { tierOf } from '../../kube/tiers.ts';
import { applicationRefs, inventoryRefs, type ManagedRef } from '../../scope/gitops/managed.ts';
import type { Use } from './findings.ts';

type Read = (group: string, kind: string) => KubeObject[];

const where = (object: KubeObject) => ({
  ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
  name: object.metadata?.name ?? '',
});

/**
 * Live objects whose last-applied copy names another apiVersion than the cache holds them at: the cache answers
 * every object at the preferred version, so a manifest's older version survives only there. Only the kinds some
 * deprecation names and the cache holds are read (not leases, webhook configurations, …: docs/upgrade-readiness.md).
 */
export function objectUses(read: Read, served: readonly ApiResource[], kinds: Set<string>) {
  const uses: Use[] = [];
  for (const resource of served.filter((r) => kinds.has(r.kind) && tierOf(r) !== undefined))
    for (const object of read(resource.group, resource.kind)) {
      const applied = appliedApiVersion(object);
      if (applied)
        uses.push({ source: 'object', apiVersion: applied, kind: resource.kind, ...where(object) });
    }
  return uses;
}

const apiVersionOf = (ref: ManagedRef) =>
  ref.version ? (ref.group ? `${ref.group}/${ref.version}` : ref.version) : undefined;

/**
 * What GitOps tools apply, at the versions they record: Argo CD Applications' `status.resources` and Flux
 * Kustomizations' inventories. (A Flux HelmRelease's objects are its Helm release's: the Helm source reads them.)
 */
export function gitopsUses(read: Read): Use[] {
  const owners = [
    ...read('argoproj.io', 'Application').map((o) => ({
      owner: o,
      refs: applicationRefs(o) as ManagedRef[],
    })),
    ...read('kustomize.toolkit.fluxcd.io', 'Kustomization').map((o) => ({
      owner: o,
      refs: inventoryRefs(o),
    })),
  ];
  return owners.flatMap(({ owner, refs }) =>
    refs.flatMap((ref): Use[] => {
      const apiVersion = apiVersionOf(ref);
      if (!apiVersion) return [];
      const application = {
        kind: owner.kind ?? '',
        namespace: owner.metadata?.namespace ?? '',
        name: owner.metadata?.name ?? '',
      };
      return [
        {
          source: 'gitops',
          apiVersion,
          kind: ref.kind,
          ...(ref.namespace ? { namespace: ref.namespace } : {}),
          name: ref.name,
          application,
        },
      ];
    }),
  );
}
