import { badRequest } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../security/principal.ts';
import { createCluster } from './service.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'audit' | 'billing' | 'clock' | 'config' | 'database' | 'log' | 'replicas' | 'tunnels'
>;

const secretName = 'binnacle-agent-token';

/** Upgrades the agent's release in place, keeping its values but the two that point it at this hub. */
const upgradeCommand = (url: string) =>
  `helm upgrade binnacle-agent charts/binnacle-agent -n binnacle --reset-then-reuse-values --set cloud.url=${url} --set cloud.existingSecret=${secretName}`;

/**
 * The connect page: registers a cluster and returns what to run in it. A fresh install in `clusterAccess:
 * idp` mode gets `cloud.defaultRbac.create=false`, so only bindings to binnacle:idp:<group> subjects grant
 * access; "already running in this cluster" upgrades the existing release keeping its values, so its
 * bindings stay as they are; an agent outside the chart is started with the token, and its RBAC is the page's
 * bindings for it (`agentRbac`). Clusters connected before are never changed.
 */
export async function connectCluster(
  ctx: Deps,
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
      commands: [secret, upgradeCommand(cloud.url)],
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

/**
 * What brings a cluster's agent back to this hub (the offline page, ADR 0070), for an agent installed as the
 * connect page says: whether it runs and what it logs; the values that point it here; a new token after a
 * rotation, into the secret it reads; and the command for an agent run outside the chart. The token itself is
 * never known again after it was shown: an owner rotates it for a new one.
 */
export function reconnectSteps(ctx: Deps) {
  const url = ctx.config.publicUrl;
  return {
    values: { cloud: { url, existingSecret: secretName } },
    check: [
      'kubectl -n binnacle get pods -l app.kubernetes.io/name=binnacle-agent',
      'kubectl -n binnacle logs deploy/binnacle-agent --tail=50',
    ],
    pointHere: [upgradeCommand(url)],
    newToken: [
      `kubectl -n binnacle create secret generic ${secretName} --from-literal=cluster-token=bnc_… --dry-run=client -o yaml | kubectl apply -f -`,
      'kubectl -n binnacle rollout restart deploy/binnacle-agent',
    ],
    withoutChart: [`BINNACLE_CLUSTER_TOKEN=bnc_… binnacle agent --cloud-url ${url}`],
  };
}
