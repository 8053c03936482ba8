import { badRequest } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../http/principal.ts';
import { createCluster } from './service.ts';

const secretName = 'binnacle-agent-token';

/**
 * The connect page: registers a cluster and returns what to run in it. A fresh install in `clusterAccess:
 * idp` mode gets `cloud.defaultRbac.create=false`, so only bindings to binnacle:idp:<group> subjects grant
 * access; "already running in this cluster" upgrades the existing release keeping its values, so its
 * bindings stay as they are; an agent outside the chart is started with the token, and its RBAC is the page's
 * bindings for it (`agentRbac`). Clusters connected before are never changed.
 */
export async function connectCluster(
  ctx: HubContext,
  principal: Principal,
  input: { name: string; alreadyRunning?: boolean; outsideChart?: boolean },
  ip: string,
) {
  if (input.alreadyRunning && input.outsideChart)
    throw badRequest(
      'alreadyRunning and outsideChart exclude each other: an agent outside the chart has no release to upgrade',
    );
  const cluster = await createCluster(ctx, principal, input.name, ip);
  const mode = ctx.config.oidcClusterAccess ?? 'roles';
  if (input.outsideChart) {
    return {
      cluster,
      clusterAccess: mode,
      values: {},
      // Started by hand, with a kubeconfig whose identity has the bindings of `agentRbac`.
      commands: [
        `export BINNACLE_CLUSTER_TOKEN=${cluster.token}`,
        `binnacle agent --cloud-url ${ctx.config.publicUrl}`,
      ],
    };
  }
  const secret = `kubectl -n binnacle create secret generic ${secretName} --from-literal=cluster-token=${cluster.token}`;
  const cloud = { url: ctx.config.publicUrl, existingSecret: secretName };
  if (input.alreadyRunning) {
    return {
      cluster,
      clusterAccess: mode,
      values: { cloud },
      commands: [
        secret,
        `helm upgrade binnacle-agent charts/binnacle-agent -n binnacle --reset-then-reuse-values --set cloud.url=${cloud.url} --set cloud.existingSecret=${secretName}`,
      ],
    };
  }
  const defaultRbac = { create: mode !== 'idp' };
  return {
    cluster,
    clusterAccess: mode,
    values: { cloud: { ...cloud, defaultRbac } },
    commands: [
      'kubectl create namespace binnacle',
      secret,
      `helm install binnacle-agent charts/binnacle-agent -n binnacle --set cloud.url=${cloud.url} --set cloud.existingSecret=${secretName} --set cloud.defaultRbac.create=${defaultRbac.create}`,
    ],
  };
}
