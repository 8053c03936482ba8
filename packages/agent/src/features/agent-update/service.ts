import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { requireAccess } from '../../http/caller.ts';
import { requireHubOwner } from '../../http/hub-role.ts';
import type { Impersonation } from '../../kube/client.ts';
import { collectionPath } from '../../kube/discovery.ts';
import { performAction } from '../../scope/actions.ts';
import { retag } from './image-tag.ts';
import type { AgentUpdateContext } from './module.ts';
import { releaseDeployment } from './release-deployment.ts';

/** The chart's container of the agent (charts/binnacle-agent/templates/deployment.yaml). */
const agentContainer = 'agent';
/** Helm's own field manager: the apply stays Helm's, and the next `helm upgrade` owns the fields as before. */
const helmFieldManager = 'helm';

interface Container {
  name: string;
  image?: string;
}
type DeploymentSpec = { template?: { spec?: { containers?: Container[] } }; replicas?: number };

export interface SelfUpgradeResult {
  status: 'upgrade initiated';
  image: string;
}

function ownDeployment(ctx: AgentUpdateContext): { namespace: string; name: string } {
  const { selfUpgradeNamespace: namespace, selfUpgradeDeployment: name } = ctx.config;
  if (!namespace || !name)
    throw new AppError(
      'self_upgrade_unavailable',
      'self-upgrade works for an agent installed in the cluster by charts/binnacle-agent with rbac.selfUpgrade=true (it sets MY_POD_NAMESPACE and MY_DEPLOYMENT_NAME)',
    );
  return { namespace, name };
}

const deploymentPath = (namespace: string, name: string) =>
  `${collectionPath({ group: 'apps', version: 'v1', plural: 'deployments', namespaced: true }, namespace)}/${encodeURIComponent(name)}`;

/** Why the Deployment is still rolling out (as `kubectl rollout status` decides it), or undefined when it is done. */
export function rolloutInProgress(deployment: KubeObject): string | undefined {
  const status = (deployment.status ?? {}) as {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
  };
  if ((status.observedGeneration ?? 0) < (deployment.metadata?.generation ?? 0))
    return 'its controller has not acted on the latest change yet';
  const wanted = (deployment.spec as DeploymentSpec | undefined)?.replicas ?? 1;
  const updated = status.updatedReplicas ?? 0;
  if (updated < wanted) return `${updated} of ${wanted} replicas are updated`;
  if ((status.replicas ?? 0) > updated)
    return `${(status.replicas ?? 0) - updated} old replicas are still running`;
  if ((status.availableReplicas ?? 0) < updated)
    return `${status.availableReplicas ?? 0} of ${updated} updated replicas are available`;
  return undefined;
}

const containerOf = (deployment: KubeObject) =>
  (deployment.spec as DeploymentSpec | undefined)?.template?.spec?.containers?.find(
    (container) => container.name === agentContainer,
  );

/**
 * Moves the agent's own Deployment to another image tag. The caller is authorised first — an owner of the
 * organization in cloud mode; elsewhere someone who may patch that Deployment (a SubjectAccessReview) — then the
 * agent's own ServiceAccount does the change, never the caller's impersonation, so owners need no rights on the
 * agent's namespace. The change is a server-side apply of the Deployment exactly as the Helm release renders it,
 * with only the agent container's image replaced, as Helm's field manager: nothing else changes hands, and the
 * release stays Helm's to upgrade. The image keeps the live repository (a private mirror keeps being used).
 */
export async function selfUpgrade(
  ctx: AgentUpdateContext,
  caller: Impersonation | undefined,
  tag: string,
): Promise<SelfUpgradeResult> {
  requireHubOwner(ctx, caller);
  const { namespace, name } = ownDeployment(ctx);
  if (!ctx.cloud)
    await requireAccess(ctx, caller, {
      verb: 'patch',
      group: 'apps',
      resource: 'deployments',
      namespace,
      name,
    });
  const client = ctx.cluster.client;
  const live = await client.request<KubeObject>({ path: deploymentPath(namespace, name) });
  const rolling = rolloutInProgress(live);
  if (rolling)
    throw new AppError(
      'conflict',
      `Deployment ${namespace}/${name} is rolling out (${rolling}); retry once it is done`,
    );
  const rendered = await releaseDeployment(client, live);
  const container = containerOf(rendered);
  const current = containerOf(live)?.image ?? container?.image;
  if (!container || !current)
    throw new AppError(
      'self_upgrade_unavailable',
      `Deployment ${namespace}/${name} has no container named ${agentContainer} with an image: it is not the chart's agent`,
    );
  const image = retag(current, tag);
  container.image = image;
  // The caller asked for it, so the action is theirs (audited, on the timeline), though the agent makes it.
  const { status } = await performAction(
    ctx,
    caller,
    'self-upgrade',
    { kind: 'Deployment', group: 'apps', namespace, name },
    async () => {
      const applied = await client.request<KubeObject>({
        method: 'PATCH',
        path: deploymentPath(namespace, name),
        query: { fieldManager: helmFieldManager, force: true },
        contentType: 'application/apply-patch+yaml',
        body: JSON.stringify(rendered),
      });
      return {
        status: 'upgrade initiated' as const,
        message: `the agent's Deployment ${namespace}/${name} now runs ${image}`,
        uid: applied.metadata?.uid,
      };
    },
  );
  return { status, image };
}
