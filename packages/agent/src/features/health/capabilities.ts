import type { AgentContext } from '../../context.ts';
import type { Impersonation, KubeClient } from '../../kube/client.ts';

interface Check {
  verb: string;
  resource: string;
  group?: string;
  subresource?: string;
}

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
} satisfies Record<string, Check>;

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

const ttlMs = 60_000;

interface Review {
  status?: { allowed?: boolean };
}

/** One SelfSubjectAccessReview; a failed review counts as not allowed (fail closed). */
async function allowed(
  client: KubeClient,
  check: Check,
  namespace: string | undefined,
  as?: Impersonation,
): Promise<boolean> {
  try {
    const review = await client.request<Review>({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            namespace,
            verb: check.verb,
            group: check.group ?? '',
            resource: check.resource,
            subresource: check.subresource,
          },
        },
      },
      as,
    });
    return review.status?.allowed === true;
  } catch {
    return false;
  }
}

/**
 * What the UI may offer, from self access reviews (cached 60 s per identity and namespace) and the agent's
 * mode: port-forward listens on the agent's host, so it is off in a cluster; so is the local terminal.
 */
export class CapabilityChecker {
  readonly #cache = new Map<string, { value: Capabilities; until: number }>();

  async capabilities(ctx: AgentContext, namespace?: string, as?: Impersonation): Promise<Capabilities> {
    const key = JSON.stringify([as?.user, as?.groups, namespace]);
    const hit = this.#cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const names = Object.keys(checks) as CheckName[];
    const results = await Promise.all(
      names.map((name) => allowed(ctx.cluster.client, checks[name], namespace, as)),
    );
    const can = Object.fromEntries(names.map((name, i) => [name, results[i] === true])) as Record<
      CheckName,
      boolean
    >;
    const local = ctx.mode === 'local';
    const value: Capabilities = {
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
      localTerminal: local,
      authEnabled: false,
      deployment: { mode: ctx.mode },
      namespace,
    };
    this.#cache.set(key, { value, until: Date.now() + ttlMs });
    return value;
  }
}
