import { AppError } from '@binnacle/common/server';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../security/principal.ts';
import { callAgentJson, knownCode } from '../../services/clusters/call.ts';

type Deps = Pick<HubContext, 'accessCache' | 'clock' | 'database' | 'log' | 'replicas' | 'tunnels'>;

/** An agent's MCP endpoint: every tool, or only those that read (ADR 0115). */
export type McpPath = '/mcp' | '/mcp-readonly';

/** A cluster's part of an MCP call; a slower agent is reported as timed out, the others still answer. */
const agentTimeoutMs = 20_000;
/** An agent's tool answer is at most 100 000 characters; this leaves room for JSON escaping and the envelope. */
const maxAnswerBytes = 2 * 1024 * 1024;

/**
 * One JSON-RPC request to a cluster agent's stateless `/mcp` (or `/mcp-readonly`), through its tunnel as the
 * caller: the agent's RBAC path decides, exactly as for `/c/<id>/mcp`. An HTTP refusal keeps the agent's code (forbidden,
 * route_not_found when its MCP is off); a JSON-RPC error becomes `invalid_request` with the agent's words.
 */
async function agentRpc<T>(
  ctx: Deps,
  principal: Principal,
  clusterId: string,
  call: { path: McpPath; method: string; params: Record<string, unknown> },
): Promise<T> {
  const { path, method, params } = call;
  const message = await callAgentJson<{ result?: T; error?: { message?: string } }>(
    ctx,
    principal,
    clusterId,
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      timeoutMs: agentTimeoutMs,
      maxBytes: maxAnswerBytes,
    },
  );
  if (message.error)
    throw new AppError('invalid_request', message.error.message ?? 'the agent refused the call');
  return message.result as T;
}

export const agentTools = (ctx: Deps, principal: Principal, clusterId: string, path: McpPath) =>
  agentRpc<{ tools: Tool[] }>(ctx, principal, clusterId, { path, method: 'tools/list', params: {} }).then(
    (r) => r.tools,
  );

export const agentToolCall = (
  ctx: Deps,
  principal: Principal,
  clusterId: string,
  path: McpPath,
  tool: { name: string; args: Record<string, unknown> },
) =>
  agentRpc<CallToolResult>(ctx, principal, clusterId, {
    path,
    method: 'tools/call',
    params: { name: tool.name, arguments: tool.args },
  });

/** The text of a tool result, its items joined (a truncation note stays with the text it belongs to). */
export const resultText = (result: CallToolResult) =>
  result.content.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('\n');

/**
 * A failed tool result as a per-cluster error: the agent words it `<code>: <message>` (its AppError), else the
 * whole text is the message.
 */
export function toolFailure(result: CallToolResult): { code: string; error: string } {
  const text = resultText(result);
  const match = /^([a-z_]+): ([\s\S]*)$/.exec(text);
  return match && knownCode(match[1])
    ? { code: match[1], error: match[2] as string }
    : { code: 'tool_error', error: text };
}
