import type { IncomingMessage } from 'node:http';
import type { AppError } from '@binnacle/common/server';
import WebSocket from 'ws';
import { fromKubeResponse, fromNetworkError, type KubeStatus } from './api-errors.ts';
import type { Impersonation, KubeClient } from './client.ts';

/** Channels of the Kubernetes streaming protocol (exec, attach): one byte in front of every frame. */
export const Channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

const execProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
const portForwardProtocols = ['v4.channel.k8s.io', 'portforward.k8s.io'];
const maxUpgradeErrorBytes = 64 * 1024;

export interface ChannelSocket {
  ws: WebSocket;
  protocol: string;
  /** Sends bytes on a channel (stdin = 0). */
  send(channel: number, data: Buffer | string): void;
  /** Tells the other side a channel is done (stdin EOF); v5 only, otherwise closes the socket. */
  closeChannel(channel: number): void;
  close(): void;
}

function readUpgradeError(res: IncomingMessage): Promise<AppError> {
  return new Promise((resolveError) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (text.length < maxUpgradeErrorBytes) text += chunk;
    });
    res.on('end', () => resolveError(fromKubeResponse(res.statusCode ?? 500, text, res.headers)));
    res.on('error', () => resolveError(fromKubeResponse(res.statusCode ?? 500, text, res.headers)));
  });
}

/**
 * Opens a WebSocket to a streaming subresource (`pods/exec`, `pods/portforward`) with the agent's TLS and
 * credentials (and the caller's impersonation). A refused upgrade becomes the same AppError a refused request
 * would (403, 404, …). `query` may repeat keys (`command` once per argument).
 */
export async function openChannelSocket(
  client: KubeClient,
  path: string,
  query: [string, string][],
  options: { as?: Impersonation; portForward?: boolean; onFrame: (channel: number, data: Buffer) => void },
): Promise<ChannelSocket> {
  const url = client.url(path);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  for (const [name, value] of query) url.searchParams.append(name, value);
  const { tls } = client.target;
  const ws = new WebSocket(url, options.portForward ? portForwardProtocols : execProtocols, {
    ca: tls.ca,
    cert: tls.cert,
    key: tls.key,
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.servername ? { servername: tls.servername } : {}),
    // ws hands headers to http.request, which sends an array value as one line per element.
    headers: (await client.upgradeHeaders(options.as)) as unknown as Record<string, string>,
    handshakeTimeout: 30_000,
    perMessageDeflate: false,
  });
  await new Promise<void>((resolveOpen, reject) => {
    ws.once('open', () => resolveOpen());
    ws.once('unexpected-response', (_req, res) => {
      void readUpgradeError(res).then(reject);
      ws.terminate();
    });
    ws.once('error', (error) => reject(fromNetworkError(error, client.target.server)));
  });
  ws.on('message', (data: Buffer, isBinary) => {
    const frame = isBinary ? data : Buffer.from(data.toString());
    if (frame.length > 0) options.onFrame(frame[0] as number, frame.subarray(1));
  });
  const v5 = ws.protocol === 'v5.channel.k8s.io';
  return {
    ws,
    protocol: ws.protocol,
    send(channel, data) {
      if (ws.readyState !== WebSocket.OPEN) return;
      const payload = typeof data === 'string' ? Buffer.from(data) : data;
      ws.send(Buffer.concat([Buffer.from([channel]), payload]));
    },
    closeChannel(channel) {
      if (v5 && ws.readyState === WebSocket.OPEN) ws.send(Buffer.from([Channel.close, channel]));
      else if (!v5) ws.close();
    },
    close() {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
      setTimeout(() => ws.terminate(), 1000).unref();
    },
  };
}

/** The outcome a command reports on the error channel: `Success`, or a Status with an exit code. */
export function parseExitStatus(data: Buffer): { success: boolean; exitCode?: number; message?: string } {
  try {
    const status = JSON.parse(data.toString()) as KubeStatus & {
      details?: { causes?: { reason?: string; message?: string }[] };
    };
    if (status.status === 'Success') return { success: true, exitCode: 0 };
    // Kubelets name the exit code in a cause; simpler runtimes (kwok) only in the message.
    const exit =
      status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message ??
      /exit status (\d+)/.exec(status.message ?? '')?.[1];
    return {
      success: false,
      exitCode: exit === undefined ? undefined : Number(exit),
      message: status.message,
    };
  } catch {
    return { success: false, message: data.toString() };
  }
}
