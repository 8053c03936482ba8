import type { KubeObject } from '@binnacle/common';
import type { KubeClient } from '../../kube/client.ts';
import { servedVersions } from '../../kube/discovery.ts';
import { deprecations } from '../../scope/audit/checks/deprecations.ts';
import type { Use } from './findings.ts';
import { crdDeprecations } from './lookup.ts';

const listedVersions = new Set(deprecations.map((d) => d.apiVersion));

/**
 * API versions the cluster still advertises that a release removes: a group version of the table that discovery
 * lists (an aggregated API, a CRD in that group, an older API server), each of its kinds — clients pick a
 * group's version from discovery, so even one advertised but not answered matters; and every version a
 * CRD serves while marking it deprecated.
 */
export async function servedUses(client: KubeClient, crds: readonly KubeObject[]): Promise<Use[]> {
  const served = await servedVersions(client, (apiVersion) => listedVersions.has(apiVersion));
  const listed = served.flatMap(({ apiVersion, resources }) =>
    resources.map((r): Use => ({ source: 'served', apiVersion, kind: r.kind, resource: r.plural })),
  );
  const declared = crds.flatMap((crd) =>
    crdDeprecations(crd).map(
      (d): Use => ({
        source: 'served',
        apiVersion: d.apiVersion,
        kind: d.kind,
        name: crd.metadata?.name ?? '',
      }),
    ),
  );
  const named = new Set(declared.map((d) => `${d.apiVersion} ${d.kind}`));
  return [...listed.filter((u) => !named.has(`${u.apiVersion} ${u.kind}`)), ...declared];
}
