import { errorCodes } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { Principal } from '../../security/principal.ts';
import { agentRequestHeaders, type ReachDeps, tunnelFor } from './reach.ts';

export interface AgentCall {
  method: 'GET' | 'POST';
  /** The agent path, query string included. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Answers longer than this are refused rather than buffered. */
  maxBytes: number;
}

export interface AgentAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One request the hub itself makes to a cluster's agent as the caller (fan-outs: MCP, fleet views): the same
 * tunnel, the same signed identity as `/c/<id>/…`, buffered because the hub reads the answer. Fails with
 * `agent_timeout` when the agent is slower than `timeoutMs`, and the stream is cancelled at the agent.
 */
export async function callAgent(
  ctx: ReachDeps,
  principal: Principal,
  clusterId: string,
  call: AgentCall,
): Promise<AgentAnswer> {
  const { tunnel, identity } = await tunnelFor(ctx, principal, clusterId);
  const stream = tunnel.client.request(
    { ':method': call.method, ':path': call.path, ...agentRequestHeaders(call.headers ?? {}, identity) },
    { endStream: call.body === undefined },
  );
  if (call.body !== undefined) stream.end(call.body);
  // Made only when a drop happens, never for a stream that ended whole: an Error's stack trace per call was
  // about 5 % of the hub's CPU in a fan-out over 1 000 clusters.
  let ended = false;
  const dropped = () =>
    new AppError('cluster_disconnected', 'the tunnel to the cluster dropped before its agent answered');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new AppError('agent_timeout', `the agent did not answer within ${call.timeoutMs} ms`));
      stream.close();
    }, call.timeoutMs);
  });
  // Wired at once: a bodiless answer (202) can end the stream as its head arrives.
  const chunks: Buffer[] = [];
  let size = 0;
  let head: { status: number; contentType: string } | undefined;
  const answer = new Promise<AgentAnswer>((resolve, reject) => {
    stream.once('response', (headers) => {
      head = { status: Number(headers[':status']), contentType: String(headers['content-type'] ?? '') };
    });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= call.maxBytes) chunks.push(chunk);
      else {
        reject(new AppError('payload_too_large', `the agent's answer exceeded ${call.maxBytes} bytes`));
        stream.close();
      }
    });
    // Node ends the streams of a dropped session as if complete: only an end while the tunnel is up is whole.
    stream.on('end', () => {
      ended = true;
      if (head && tunnel.client.open) resolve({ ...head, text: Buffer.concat(chunks).toString('utf8') });
      else reject(dropped());
    });
    stream.on('close', () => {
      if (!ended) reject(dropped());
    });
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
    if (!stream.closed) stream.close();
  }
}

/** Whether the agent's error code is one the hub knows (and may pass on as its own). */
export const knownCode = (code: unknown): code is keyof typeof errorCodes =>
  typeof code === 'string' && Object.hasOwn(errorCodes, code);

/**
 * `callAgent` for a JSON answer: a 200's body parsed; a refusal keeps the agent's code when the hub knows it
 * (forbidden, not_ready, route_not_found …), else `cluster_error` with the agent's words.
 */
export async function callAgentJson<T>(
  ctx: ReachDeps,
  principal: Principal,
  clusterId: string,
  call: AgentCall,
): Promise<T> {
  const answer = await callAgent(ctx, principal, clusterId, call);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new AppError('cluster_error', `the agent answered ${answer.status} without JSON`);
  }
  if (answer.status === 200) return body as T;
  const { error, code } = (body ?? {}) as { error?: unknown; code?: unknown };
  const text = String(error ?? `HTTP ${answer.status}`);
  throw knownCode(code)
    ? new AppError(code, text)
    : new AppError('cluster_error', `the agent answered ${answer.status}: ${text}`);
}

/** `callAgentJson` for a GET with query parameters (those undefined left out). */
export function getAgentJson<T>(
  ctx: ReachDeps,
  principal: Principal,
  clusterId: string,
  route: { path: string; query?: Record<string, string | number | undefined> },
  limits: Pick<AgentCall, 'timeoutMs' | 'maxBytes'>,
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(route.query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const search = params.size > 0 ? `?${params}` : '';
  return callAgentJson<T>(ctx, principal, clusterId, {
    method: 'GET',
    path: `${route.path}${search}`,
    headers: { accept: 'application/json' },
    ...limits,
  });
}
