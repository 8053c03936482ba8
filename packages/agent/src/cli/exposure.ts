import type { AgentConfig } from '../config/agent-config.ts';
import { isLoopback } from '../http/same-origin.ts';

/**
 * What the start line adds about who may use the port: in cloud mode only the hub, and a standalone agent
 * listening beyond loopback has no authentication at all — said at every start, not only in the docs.
 */
export function exposureNotice(config: AgentConfig, url: string): string | undefined {
  if (config.cloudUrl) {
    return `cloud mode: the API is served only through ${new URL(config.cloudUrl).origin}/c/<cluster_id>/; ${url} answers only /api/health`;
  }
  if (isLoopback(config.listenAddress)) return undefined;
  return `WARNING: no authentication on ${url}: whoever reaches it reads the cluster as this agent's identity, Secrets included (docs/agent.md, "Who can reach the agent")`;
}
