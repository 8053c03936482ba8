export { cameThroughTunnel, forwardableHeaders, type LocalTarget, serveTunnel } from './agent-side.ts';
export { type DialOptions, dialHub, type TunnelState } from './dialer.ts';
export { acceptTunnel, asksForTunnel, TunnelClient } from './hub-side.ts';
export {
  type ForwardedIdentity,
  IdentitySigner,
  identityHeader,
  identityKey,
  signIdentity,
  verifyIdentity,
} from './identity.ts';
export { agentVersionHeader, clusterIdHeader, tunnelProtocol } from './protocol.ts';
