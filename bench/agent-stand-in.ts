import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cameThroughTunnel, dialHub, identityHeader, identityKey, verifyIdentity } from '@binnacle/tunnel';

/** About the size of a small agent JSON answer. */
const bodySize = 200;

export interface StandIn {
  port: number;
  /** The server tunnels hand their requests to (in process, as to an agent's own). */
  server: http.Server;
  body: string;
  /** Requests answered as the stand-in itself (direct, or tunneled without an identity) and with a verified identity. */
  counts: { direct: number; verified: number };
  /** Accept identities the hub signs for this cluster (the agent derives the key from its token the same way). */
  trust(clusterId: string, token: string): void;
  close(): Promise<void>;
}

function healthBody(): string {
  const base = { status: 'ok', version: 'bench', mode: 'cloud', ready: true, padding: '' };
  return JSON.stringify({ ...base, padding: 'x'.repeat(bodySize - JSON.stringify(base).length) });
}

/**
 * What a cloud-mode agent's own listener is to its tunnel: GET /api/health answers a ~200-byte JSON, and a
 * forwarded identity is checked as the agent checks it (HMAC with the cluster token's hash, audience, expiry), and
 * only on requests the tunnel handed over, so a tunneled request pays that too. A header that does not verify is
 * a 401, which fails the load run.
 * `routes`: more GET paths answered with canned JSON, whatever their query string (agent routes the hub calls).
 */
export async function startStandIn(routes: Record<string, string> = {}): Promise<StandIn> {
  const body = healthBody();
  const answers = new Map([['/api/health', body], ...Object.entries(routes)]);
  const keys = new Map<string, string>();
  const counts = { direct: 0, verified: 0 };
  const verified = (header: string) => {
    let aud: unknown;
    try {
      aud = (JSON.parse(Buffer.from(header.split('.')[0] ?? '', 'base64url').toString()) as { aud?: unknown })
        .aud;
    } catch {
      return false;
    }
    const key = typeof aud === 'string' ? keys.get(aud) : undefined;
    return Boolean(key && verifyIdentity(key, header, aud as string, Date.now()));
  };
  const server = http.createServer((request, response) => {
    const answer = request.method === 'GET' ? answers.get(request.url?.split('?')[0] ?? '') : undefined;
    if (answer === undefined) return response.writeHead(404).end();
    const header = cameThroughTunnel(request) ? request.headers[identityHeader] : undefined;
    if (typeof header === 'string' && !verified(header))
      return response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad identity"}');
    counts[typeof header === 'string' ? 'verified' : 'direct'] += 1;
    response
      .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) })
      .end(answer);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    server,
    body,
    counts,
    trust: (clusterId, token) => void keys.set(clusterId, identityKey(token)),
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

export interface Agent {
  clusterId: string;
  /** Times the tunnel dropped while the bench did not close it. */
  drops: () => number;
  close(): Promise<void>;
}

/**
 * One agent's tunnel exactly as cloud mode opens it (`dialHub` handing requests to the agent's own server), resolved
 * once the hub has accepted it and named the cluster. Refused or dropped dials keep retrying inside dialHub,
 * so the wait is bounded here. Resolved from the dialer's own state callback, not by polling: a thousand
 * dialers polling every few milliseconds would take the CPU the hub is measured on.
 */
export async function dialAgent(
  hubUrl: string,
  clusterToken: string,
  server: http.Server,
  timeoutMs: number,
): Promise<Agent> {
  let clusterId: string | undefined;
  let closing = false;
  let drops = 0;
  let lastReason = '';
  let opened: (() => void) | undefined;
  const connected = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const dialer = dialHub({
    hubUrl,
    clusterToken,
    agentVersion: 'bench',
    target: { server },
    onState: (state, detail) => {
      if (state === 'connected') {
        clusterId = detail;
        if (clusterId) opened?.();
      }
      if (state === 'disconnected' && !closing) {
        drops += 1;
        lastReason = detail ?? '';
      }
    },
  });
  const close = async () => {
    closing = true;
    await dialer.close();
  };
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    connected,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!clusterId) {
    await close();
    throw new Error(`the tunnel did not open within ${timeoutMs} ms (${lastReason || 'no answer'})`);
  }
  return { clusterId, drops: () => drops, close };
}
