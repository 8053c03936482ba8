import type { KubeObject } from '@binnacle/common';
import { deprecationOf } from '../../scope/audit/checks/deprecations.ts';

/** What a deprecated API version comes to: the release that removes it, what to use instead, a word from its owner. */
export interface Removal {
  removedIn?: string;
  replacement?: string;
  note?: string;
}

/** Looks an apiVersion and kind up: Kubernetes' table of removals first, then the CRDs' deprecated versions. */
export type ApiLookup = (apiVersion: string, kind: string) => Removal | undefined;

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
}

/** The deprecated versions a CRD still serves, each with the version to move to (the newest not deprecated). */
export function crdDeprecations(crd: KubeObject): { apiVersion: string; kind: string; removal: Removal }[] {
  const spec = (crd.spec ?? {}) as { group?: string; names?: { kind?: string }; versions?: CrdVersion[] };
  const versions = (spec.versions ?? []).filter((v) => v.served !== false && v.name);
  const current =
    versions.find((v) => v.storage && !v.deprecated) ?? versions.find((v) => !v.deprecated) ?? undefined;
  return versions
    .filter((v) => v.deprecated)
    .map((v) => ({
      apiVersion: `${spec.group}/${v.name}`,
      kind: spec.names?.kind ?? '',
      removal: {
        ...(current ? { replacement: `${spec.group}/${current.name}` } : {}),
        ...(v.deprecationWarning ? { note: v.deprecationWarning } : {}),
      },
    }));
}

export function apiLookup(crds: readonly KubeObject[]): ApiLookup {
  const declared = new Map(
    crds.flatMap(crdDeprecations).map((d) => [`${d.apiVersion} ${d.kind}`, d.removal] as const),
  );
  return (apiVersion, kind) => {
    const listed = deprecationOf(apiVersion, kind);
    if (listed)
      return {
        removedIn: listed.removedIn,
        ...(listed.replacement
          ? { replacement: listed.replacement }
          : { note: 'the API has no replacement' }),
      };
    return declared.get(`${apiVersion} ${kind}`);
  };
}
