import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Impersonation } from '../../kube/client.ts';
import { onlyReading } from '../../kube/read-only.ts';
import type { AgentTool } from '../../scope/mcp/tool.ts';
import { answer } from './answer.ts';

/** What the endpoint serves: the agent's version, the tools of the modules, whether it leaves out the writes. */
export interface McpOffer {
  version: string;
  tools: readonly AgentTool[];
  readOnly: boolean;
}

/** Resources an assistant may attach as context: the answers of read tools with fixed arguments. */
const agentResources = [
  {
    uri: 'cluster://health',
    name: 'health',
    title: 'Cluster health',
    description: 'The dashboard: pod health, problems, counts and recent events',
    tool: 'get_dashboard',
    args: {},
  },
  {
    uri: 'cluster://topology',
    name: 'topology',
    title: 'Topology',
    description: 'How the objects connect, with their health',
    tool: 'get_topology',
    args: {},
  },
  {
    uri: 'cluster://events',
    name: 'events',
    title: 'Recent warnings',
    description: 'The 50 most recent Warning events',
    tool: 'get_events',
    args: { type: 'Warning', limit: 50 },
  },
];

/**
 * An MCP server for one request (the endpoint is stateless): the tools, each running as the caller, so the API
 * server's RBAC decides every read and write exactly as for the REST routes. A read-only endpoint lists no tool
 * that writes, and its tools run where the agent's Kubernetes client sends nothing but reads (ADR 0115).
 */
export function mcpServer(offer: McpOffer, caller: Impersonation | undefined): McpServer {
  const server = new McpServer(
    { name: 'binnacle-agent', title: 'Binnacle agent', version: offer.version },
    {
      instructions:
        'Tools for one Kubernetes cluster, watched by a Binnacle agent. Start with get_dashboard or issues; diagnose a failing pod or workload in one call; search finds objects by name or label; then list_resources / get_resource, get_events, get_pod_logs, get_workload_logs and get_changes to find why something fails. Secret values and credentials are never shown.',
    },
  );
  for (const entry of offer.tools) {
    if (offer.readOnly && entry.writes) continue;
    server.registerTool(
      entry.name,
      {
        title: entry.title,
        description: entry.description,
        inputSchema: entry.input,
        annotations: {
          title: entry.title,
          readOnlyHint: !entry.writes,
          destructiveHint: Boolean(entry.writes),
          openWorldHint: false,
        },
      },
      (args: Record<string, unknown>) => {
        const run = () => answer(() => entry.run(args as never, { caller, now: Date.now() }));
        // Read-only: the tools listed read, and the client refuses any other request while they run.
        return offer.readOnly ? onlyReading(run) : run();
      },
    );
  }
  for (const resource of agentResources) {
    const source = offer.tools.find((t) => t.name === resource.tool) as AgentTool;
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: 'application/json' },
      async (uri) => {
        const args = z.object(source.input).parse(resource.args);
        const value = await source.run(args as never, { caller, now: Date.now() });
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] };
      },
    );
  }
  return server;
}
