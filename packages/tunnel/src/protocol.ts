import http2, { type Http2Session } from 'node:http2';

/**
 * What the agent asks the hub to switch its connection to (`Upgrade:`): HTTP/2 straight on the upgraded socket,
 * the agent serving and the hub the client (docs/adr/0110-the-tunnel-is-http2-on-the-upgraded-socket.md).
 */
export const tunnelProtocol = 'binnacle-tunnel-h2';
/** The agent names its version when it dials; the hub answers the handshake with the cluster id it derived. */
export const agentVersionHeader = 'x-binnacle-agent-version';
export const clusterIdHeader = 'x-binnacle-cluster-id';

/**
 * Everything either end takes from the other is bounded: 256 streams at once, header blocks of 64 KiB and 128
 * fields, frames of 16 KiB (HTTP/2's default, announced anyway), 32 MB of session memory (nghttp2 refuses new
 * streams past it); request and answer bodies are paced by HTTP/2 flow control.
 */
export const sessionLimits = {
  settings: { maxConcurrentStreams: 256, maxHeaderListSize: 64 * 1024, maxFrameSize: 16 * 1024 },
  maxHeaderListPairs: 128,
  maxSessionMemory: 32,
  peerMaxConcurrentStreams: 256,
} as const;

/** The close reason travels as GOAWAY data; more of it than this is not read. */
const maxReasonBytes = 256;

/**
 * Ends a tunnel with a reason the other end reports, in the codes the WebSocket tunnel had (1000 normal, 1001
 * going away, 4000 superseded by a newer connection, 4001 token rotated or cluster deleted): a GOAWAY carrying
 * `<code> <reason>`, then the session is destroyed, which cancels its streams and sends what is queued first.
 */
export function closeSession(session: Http2Session, code: number, reason: string): void {
  if (session.destroyed) return;
  if (!session.closed)
    session.goaway(
      http2.constants.NGHTTP2_NO_ERROR,
      0,
      Buffer.from(`${code} ${reason}`.slice(0, maxReasonBytes)),
    );
  session.destroy();
}

/** The `<code> <reason>` of a GOAWAY sent by `closeSession`, as text safe to log. */
export const closeReason = (opaqueData: Buffer | undefined): string =>
  (opaqueData ?? Buffer.alloc(0))
    .subarray(0, maxReasonBytes)
    .toString('utf8')
    .replace(/[^\x20-\x7e]/g, '?');
