import { boundedTextContent } from '@binnacle/common';
import { toAppError } from '@binnacle/common/server';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../security/principal.ts';
import { listClusters } from '../../services/clusters/directory.ts';
import { type ClusterRef, fanOut } from '../../services/clusters/fan-out.ts';
import { agentToolCall, agentTools, type McpPath, resultText, toolFailure } from './agent-rpc.ts';
import { compareTool, runCompareTool } from './compare-tool.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'clock' | 'database' | 'fleetLimit' | 'log' | 'replicas' | 'tunnels' | 'version'
>;

/** The hub's own tool: which clusters there are, so an assistant can name one. */
export const listClustersTool: Tool = {
  name: 'list_clusters',
  title: 'Clusters',
  description:
    'The clusters of your organisation on this hub: id, name, whether their agent is connected now, agent version and when it was last seen. Pass an id or name as `cluster` to the other tools.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const readOnly = (tool: Tool) => tool.annotations?.readOnlyHint === true;
/** The hub's own tools: they ask no cluster, or the ones they name, so they never fan out. */
const hubTools = new Set([listClustersTool.name, compareTool.name]);

/**
 * An agent tool as the hub offers it: the same schema plus `cluster`. Read tools fan out to every connected
 * cluster without it; a tool that changes a cluster needs it.
 */
function withClusterArgument(tool: Tool): Tool {
  const fansOut = readOnly(tool);
  return {
    ...tool,
    description: `${tool.description ?? ''} ${
      fansOut
        ? 'Hub: pass `cluster` (id or name) for one cluster; without it every connected cluster answers, with a list of the clusters that could not.'
        : 'Hub: `cluster` (id or name) says which cluster to change.'
    }`.trim(),
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...tool.inputSchema.properties,
        cluster: {
          type: 'string',
          minLength: 1,
          maxLength: 253,
          description: 'a cluster id or name (list_clusters)',
        },
      },
      required: fansOut ? tool.inputSchema.required : [...(tool.inputSchema.required ?? []), 'cluster'],
    },
  };
}

/** Every tool the caller's connected clusters offer, once each (the first cluster by name describes it). */
async function clusterTools(ctx: Deps, principal: Principal, path: McpPath): Promise<Tool[]> {
  const { results } = await fanOut(ctx, principal, (cluster) => agentTools(ctx, principal, cluster.id, path));
  const byName = new Map<string, Tool>();
  for (const { value } of results)
    for (const tool of value) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  return [...byName.values()];
}

/** The tool as the first connected cluster that offers it describes it (agents in read-only mode offer fewer). */
async function toolNamed(
  ctx: Deps,
  principal: Principal,
  name: string,
  path: McpPath,
): Promise<Tool | undefined> {
  for (const cluster of await listClusters(ctx, principal.orgId)) {
    if (!cluster.connected) continue;
    const tools = await agentTools(ctx, principal, cluster.id, path).catch(() => []);
    const tool = tools.find((t) => t.name === name);
    if (tool) return tool;
  }
  return undefined;
}

const invalid = (message: string) => new McpError(ErrorCode.InvalidParams, message);

async function resolveCluster(ctx: Deps, principal: Principal, wanted: unknown): Promise<ClusterRef> {
  if (typeof wanted !== 'string' || wanted.length === 0 || wanted.length > 253)
    throw invalid('cluster: a cluster id or name (1 to 253 characters)');
  const clusters = await listClusters(ctx, principal.orgId);
  const found = clusters.find((c) => c.id === wanted) ?? clusters.find((c) => c.name === wanted);
  if (!found) throw invalid(`cluster: no cluster "${wanted}" in this organisation (see list_clusters)`);
  return { id: found.id, name: found.name };
}

const textResult = (value: unknown, hint: string): CallToolResult => ({
  content: boundedTextContent(typeof value === 'string' ? value : JSON.stringify(value), hint),
});

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Whether a tools/call names a cluster tool without `cluster`: it fans out, and counts against the fleet limit. */
export function fansOut(message: unknown): boolean {
  const { method, params } = (message ?? {}) as {
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
  };
  if (method !== 'tools/call' || hubTools.has(String(params?.name))) return false;
  return (params?.arguments as { cluster?: unknown } | undefined)?.cluster === undefined;
}

/**
 * The organisation-wide MCP server for one request (stateless, like the agent's): `list_clusters`, and every
 * tool of the caller's connected clusters with a `cluster` argument. A call naming a cluster goes to that
 * cluster's agent as the caller; a read call without one goes to all of them at once and answers each
 * cluster's result beside the list of clusters that did not answer (offline, timed out, refused). Read-only
 * (`/mcp-readonly`, ADR 0115), it asks the agents' read-only endpoints: only their read tools, nothing but reads.
 */
export function hubMcpServer(ctx: Deps, principal: Principal, path: McpPath = '/mcp'): Server {
  const server = new Server(
    { name: 'binnacle-hub', title: 'Binnacle hub', version: ctx.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools for every Kubernetes cluster of your organisation. list_clusters names them; read tools without `cluster` ask all connected clusters at once (rate-limited: 30 such calls per minute), with `cluster` just one. Secret values and credentials are never shown.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      listClustersTool,
      compareTool,
      ...(await clusterTools(ctx, principal, path)).map(withClusterArgument),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const { cluster, ...args } = request.params.arguments ?? {};
    if (name === listClustersTool.name)
      return textResult(await listClusters(ctx, principal.orgId), 'the list is complete');
    if (name === compareTool.name)
      return runCompareTool(ctx, principal, request.params.arguments ?? {}, (wanted) =>
        resolveCluster(ctx, principal, wanted),
      );
    if (cluster !== undefined) {
      const target = await resolveCluster(ctx, principal, cluster);
      try {
        return await agentToolCall(ctx, principal, target.id, path, { name, args });
      } catch (error) {
        const failure = toAppError(error);
        if (failure.code === 'invalid_request') throw invalid(failure.message);
        return { isError: true, content: [{ type: 'text', text: `${failure.code}: ${failure.message}` }] };
      }
    }
    const tool = await toolNamed(ctx, principal, name, path);
    if (!tool) throw invalid(`unknown tool "${name}" (none of the connected clusters offers it)`);
    if (!readOnly(tool)) throw invalid(`cluster: required, because ${name} changes a cluster`);
    const outcome = await fanOut(ctx, principal, (target) =>
      agentToolCall(ctx, principal, target.id, path, { name, args }),
    );
    const clusters: { id: string; name: string; answer: unknown }[] = [];
    const errors = [...outcome.errors];
    for (const { cluster: target, value } of outcome.results) {
      if (value.isError) errors.push({ cluster: target, ...toolFailure(value) });
      else clusters.push({ ...target, answer: parsed(resultText(value)) });
    }
    return textResult({ clusters, errors }, 'name one cluster with `cluster`, or narrow the query');
  });
  return server;
}
