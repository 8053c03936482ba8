import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '@binnacle/common';
import { WebSocket } from 'ws';
import { type LocalTarget, serveOverWebSocket } from './agent-side.ts';

/** The agent names its version when it dials; the hub answers the handshake with the cluster id it derived. */
export const agentVersionHeader = 'x-binnacle-agent-version';
export const clusterIdHeader = 'x-binnacle-cluster-id';

const healthyAfterMs = 60_000;
/**
 * The hub pings every 10 s: two and a half periods of silence mean the hub (or the replica behind a load
 * balancer) is gone without closing the connection, and the agent redials, landing on a live replica well
 * within the 35 s a cluster may stay unreachable when a replica dies (docs/scaling.md).
 */
const silentHubMs = 25_000;

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
 * Keeps the agent's tunnel to the hub up: dials `wss://<hub>/api/agents/connect` with the cluster token,
 * serves HTTP/2 over it, and redials with backoff whenever it drops (the backoff resets after a minute of
 * health). A hub silent for 25 s (no ping) counts as dropped.
 */
export function dialHub(options: DialOptions): { close(): Promise<void> } {
  let stopped = false;
  let current: WebSocket | undefined;
  let wake: (() => void) | undefined;
  const url = `${options.hubUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/api/agents/connect`;
  const loop = async () => {
    let attempt = 0;
    while (!stopped) {
      options.onState?.('connecting');
      const openedAt = Date.now();
      const reason = await new Promise<string>((done) => {
        const ws = new WebSocket(url, {
          headers: {
            authorization: `Bearer ${options.clusterToken}`,
            [agentVersionHeader]: options.agentVersion,
          },
          perMessageDeflate: false,
          maxPayload: 1024 * 1024,
          handshakeTimeout: 10_000,
        });
        current = ws;
        let silence: NodeJS.Timeout | undefined;
        const quiet = () => {
          clearTimeout(silence);
          silence = setTimeout(() => ws.terminate(), silentHubMs);
          silence.unref();
        };
        let clusterId: string | undefined;
        ws.on('upgrade', (response) => {
          clusterId = String(response.headers[clusterIdHeader] ?? '') || undefined;
        });
        ws.on('open', () => {
          options.onState?.('connected', clusterId);
          quiet();
          serveOverWebSocket(ws, options.target);
        });
        ws.on('ping', quiet);
        ws.on('unexpected-response', (_request, response) => {
          done(`the hub refused the tunnel (${response.statusCode})`);
          ws.terminate();
        });
        ws.on('error', (error) => done(error.message));
        ws.on('close', (code, why) => {
          clearTimeout(silence);
          done(`closed (${code}${why.length ? ` ${why.toString()}` : ''})`);
        });
      });
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
      current?.close(1001, 'agent stopping');
      await running;
    },
  };
}
