export { forwardableHeaders, type LocalTarget, peerKey, serveOverWebSocket } from './agent-side.ts';
export {
  agentVersionHeader,
  backoffDelay,
  clusterIdHeader,
  type DialOptions,
  dialHub,
  maxBackoffMs,
  minBackoffMs,
  type TunnelState,
} from './dialer.ts';
export { TunnelClient } from './hub-side.ts';
export {
  type ForwardedIdentity,
  identityHeader,
  identityKey,
  signIdentity,
  verifyIdentity,
} from './identity.ts';
