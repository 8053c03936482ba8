import type { KubeObject } from '@binnacle/common';
import { AppError, parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import type { KubeClient } from '../../kube/client.ts';
import { collectionPath } from '../../kube/discovery.ts';
import { decodeRelease, latestRevisions } from '../../scope/helm-releases.ts';

const secrets = { group: '', version: 'v1', plural: 'secrets', namespaced: true };

/**
 * The Deployment as the newest revision of its Helm release renders it (Helm's `meta.helm.sh/release-*`
 * annotations on the live object name the release). Read with the agent's own client, from the release Secrets
 * listed by Helm's labels — the access rbac.selfUpgrade grants. 503 `self_upgrade_unavailable` when the
 * Deployment is not from a release; 409 while helm is changing the release.
 */
export async function releaseDeployment(client: KubeClient, live: KubeObject): Promise<KubeObject> {
  const name = live.metadata?.name ?? '';
  const release = live.metadata?.annotations?.['meta.helm.sh/release-name'];
  const namespace =
    live.metadata?.annotations?.['meta.helm.sh/release-namespace'] ?? live.metadata?.namespace;
  if (!release || !namespace)
    throw new AppError(
      'self_upgrade_unavailable',
      `Deployment ${live.metadata?.namespace}/${name} is not part of a Helm release: install the agent with charts/binnacle-agent`,
    );
  const list = await client.request<{ items: KubeObject[] }>({
    path: collectionPath(secrets, namespace),
    query: { labelSelector: `owner=helm,name=${release}` },
  });
  const [newest] = latestRevisions(list.items);
  if (!newest)
    throw new AppError(
      'self_upgrade_unavailable',
      `Helm release ${namespace}/${release} has no stored revision`,
    );
  const stored = decodeRelease(newest);
  const status = stored.info?.status ?? '';
  if (status.startsWith('pending-'))
    throw new AppError(
      'conflict',
      `helm is changing release ${namespace}/${release} (revision ${stored.version} is ${status}); retry once it is done`,
    );
  const rendered = (
    parseYamlDocuments(stored.manifest ?? '', yamlLimits.stored) as (KubeObject | null)[]
  ).find((object) => object?.kind === 'Deployment' && object.metadata?.name === name);
  if (!rendered)
    throw new AppError(
      'self_upgrade_unavailable',
      `revision ${stored.version} of Helm release ${namespace}/${release} renders no Deployment ${name}`,
    );
  return rendered;
}
