export { forwardableHeaders, type LocalTarget, peerKey, serveOverWebSocket } from './agent-side.ts';
export {
  agentVersionHeader,
  clusterIdHeader,
  type DialOptions,
  dialHub,
  type TunnelState,
} from './dialer.ts';
export { TunnelClient } from './hub-side.ts';
export {
  type ForwardedIdentity,
  IdentitySigner,
  identityHeader,
  identityKey,
  signIdentity,
  verifyIdentity,
} from './identity.ts';
