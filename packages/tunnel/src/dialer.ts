import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '@binnacle/common';
import { type LocalTarget, serveTunnel } from './agent-side.ts';
import {
  agentVersionHeader,
  closeReason,
  closeSession,
  clusterIdHeader,
  tunnelProtocol,
} from './protocol.ts';

const healthyAfterMs = 60_000;
/**
 * The hub pings every 10 s: two and a half periods of silence mean the hub (or the replica behind a load
 * balancer) is gone without closing the connection, and the agent redials, landing on a live replica well
 * within the 35 s a cluster may stay unreachable when a replica dies (docs/scaling.md).
 */
const silentHubMs = 25_000;
const handshakeTimeoutMs = 10_000;

export type TunnelState = 'connecting' | 'connected' | 'disconnected';

export interface DialOptions {
  /** The hub's base URL (https:// or http:// for development). */
  hubUrl: string;
  clusterToken: string;
  agentVersion: string;
  target: LocalTarget;
  /** `connected` comes with the cluster id the hub assigned; `disconnected` with the reason. */
  onState?: (state: TunnelState, detail?: string) => void;
}

/**
 * One connection to the hub: `GET /api/agents/connect` with the cluster token, upgraded to the tunnel's
 * protocol, then HTTP/2 on the socket until either end closes it. Settles with why it ended.
 */
function connectOnce(
  url: URL,
  options: DialOptions,
  track: (stop: (code: number, reason: string) => void) => void,
): Promise<string> {
  return new Promise<string>((done) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: tunnelProtocol,
        authorization: `Bearer ${options.clusterToken}`,
        [agentVersionHeader]: options.agentVersion,
      },
      timeout: handshakeTimeoutMs,
      // A connection of its own: it leaves HTTP/1.1 for good, so it never belongs to a pool.
      agent: false,
    });
    track((code, reason) => request.destroy(new Error(`closed (${code} ${reason})`)));
    request.on('timeout', () => request.destroy(new Error('the hub did not answer the handshake in 10 s')));
    request.on('error', (error) => done(error.message));
    request.on('response', (response) => {
      response.resume();
      done(`the hub refused the tunnel (${response.statusCode})`);
    });
    request.on('upgrade', (response, socket: Socket, head: Buffer) => {
      socket.setTimeout(0);
      socket.setNoDelay(true);
      if (response.headers.upgrade?.toLowerCase() !== tunnelProtocol) {
        socket.destroy();
        return done(`the hub answered the handshake with another protocol (${response.headers.upgrade})`);
      }
      // The hub starts HTTP/2 right after its answer: its first bytes may have come with it.
      if (head.length > 0) socket.unshift(head);
      // A session must not take over a socket with a write still in flight (Node aborts on it, see acceptTunnel).
      if (!request.writableFinished) {
        socket.destroy();
        return done('the hub answered before the request was sent');
      }
      const session = serveTunnel(socket, options.target);
      track((code, reason) => closeSession(session, code, reason));
      let reason = 'closed';
      // The hub's reason comes first; the GOAWAY of the session's end that may follow carries none.
      session.on('goaway', (_code, _lastStreamId, opaqueData?: Buffer) => {
        if (reason === 'closed' && opaqueData?.length) reason = `closed (${closeReason(opaqueData)})`;
      });
      let silence: NodeJS.Timeout | undefined;
      const quiet = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          reason = 'the hub was silent for 25 s';
          session.destroy();
        }, silentHubMs);
        silence.unref();
      };
      session.on('ping', quiet);
      session.on('close', () => {
        clearTimeout(silence);
        done(reason);
      });
      quiet();
      const clusterId = response.headers[clusterIdHeader];
      options.onState?.('connected', typeof clusterId === 'string' && clusterId ? clusterId : undefined);
    });
    request.end();
  });
}

/**
 * Keeps the agent's tunnel to the hub up: dials `<hub>/api/agents/connect` with the cluster token, serves
 * HTTP/2 on the upgraded connection, and redials with backoff whenever it drops (the backoff resets after a
 * minute of health). A hub silent for 25 s (no ping) counts as dropped.
 */
export function dialHub(options: DialOptions): { close(): Promise<void> } {
  let stopped = false;
  let stopCurrent: ((code: number, reason: string) => void) | undefined;
  let wake: (() => void) | undefined;
  const url = new URL(`${options.hubUrl.replace(/\/$/, '')}/api/agents/connect`);
  const loop = async () => {
    let attempt = 0;
    while (!stopped) {
      options.onState?.('connecting');
      const openedAt = Date.now();
      const reason = await connectOnce(url, options, (stop) => {
        stopCurrent = stop;
      });
      stopCurrent = undefined;
      options.onState?.('disconnected', reason);
      if (stopped) return;
      attempt = Date.now() - openedAt > healthyAfterMs ? 0 : attempt + 1;
      const waited = new AbortController();
      wake = () => waited.abort();
      await sleep(backoffDelay(attempt), undefined, { signal: waited.signal }).catch(() => undefined);
    }
  };
  const running = loop();
  return {
    async close() {
      stopped = true;
      wake?.();
      stopCurrent?.(1001, 'agent stopping');
      await running;
    },
  };
}
