import type { AgentContext } from '../../context.ts';
import type { AccessAttributes } from '../../kube/access-review.ts';
import type { Impersonation } from '../../kube/client.ts';

const checks = {
  exec: { verb: 'create', resource: 'pods', subresource: 'exec' },
  logs: { verb: 'get', resource: 'pods', subresource: 'log' },
  portForward: { verb: 'create', resource: 'pods', subresource: 'portforward' },
  secrets: { verb: 'list', resource: 'secrets' },
  deployments: { verb: 'patch', resource: 'deployments', group: 'apps' },
  statefulSets: { verb: 'patch', resource: 'statefulsets', group: 'apps' },
  daemonSets: { verb: 'patch', resource: 'daemonsets', group: 'apps' },
  nodes: { verb: 'patch', resource: 'nodes' },
  debugContainers: { verb: 'patch', resource: 'pods', subresource: 'ephemeralcontainers' },
} satisfies Record<string, Omit<AccessAttributes, 'group' | 'namespace'> & { group?: string }>;

type CheckName = keyof typeof checks;

export interface Capabilities {
  exec: boolean;
  logs: boolean;
  portForward: boolean;
  secrets: boolean;
  debugContainers: boolean;
  workloadWrites: { deployments: boolean; statefulSets: boolean; daemonSets: boolean };
  nodeWrites: boolean;
  localTerminal: boolean;
  authEnabled: boolean;
  deployment: { mode: AgentContext['mode'] };
  namespace?: string;
}

/**
 * What the UI may offer, from access reviews (the agent's own, or a tunneled caller's; see AccessReviewer) and
 * the agent's mode: port-forward listens on the agent's host, so it is off in a cluster, as is the local
 * terminal (also off with --disable-local-terminal); neither is served to tunneled callers.
 */
export async function capabilities(
  ctx: AgentContext,
  namespace?: string,
  as?: Impersonation,
): Promise<Capabilities> {
  const names = Object.keys(checks) as CheckName[];
  const results = await Promise.all(
    names.map((name) => ctx.access.allowed(as, { group: '', ...checks[name], namespace })),
  );
  const can = Object.fromEntries(names.map((name, i) => [name, results[i] === true])) as Record<
    CheckName,
    boolean
  >;
  const local = ctx.mode === 'local' && !as;
  return {
    exec: can.exec,
    logs: can.logs,
    portForward: can.portForward && local,
    secrets: can.secrets,
    debugContainers: can.debugContainers,
    workloadWrites: {
      deployments: can.deployments,
      statefulSets: can.statefulSets,
      daemonSets: can.daemonSets,
    },
    nodeWrites: can.nodes,
    localTerminal: local && !ctx.config.disableLocalTerminal,
    authEnabled: Boolean(as),
    deployment: { mode: ctx.mode },
    namespace,
  };
}
