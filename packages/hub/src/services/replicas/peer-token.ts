import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a replica sends with every stream it relays to another replica. */
export const peerHeader = 'x-binnacle-peer';
/** The cluster whose tunnel a relayed stream is for. */
export const peerClusterHeader = 'x-binnacle-peer-cluster';

/** Long enough for a clock step between replicas, short enough that a captured header soon fails. */
const tokenTtlSeconds = 60;

/**
 * Replicas prove to each other that a relayed stream comes from a replica: an HMAC, under a key derived from
 * the hub's secret key (which every replica shares), over the cluster and an expiry. The relayed request
 * still carries the caller's identity signed for the agent, so a replica relays, and never decides access.
 */
export class PeerTokens {
  readonly #key: Buffer;

  constructor(secretKey: Buffer) {
    this.#key = createHmac('sha256', secretKey).update('binnacle replica peers').digest();
  }

  sign(clusterId: string, nowMs: number): string {
    const exp = Math.floor(nowMs / 1000) + tokenTtlSeconds;
    return `${exp}.${this.#mac(clusterId, exp)}`;
  }

  verify(token: string, clusterId: string, nowMs: number): boolean {
    const [expText, mac] = token.split('.');
    const exp = Number(expText);
    if (!mac || !Number.isInteger(exp) || exp * 1000 <= nowMs) return false;
    const expected = Buffer.from(this.#mac(clusterId, exp));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  #mac(clusterId: string, exp: number): string {
    return createHmac('sha256', this.#key).update(`${clusterId}\n${exp}`).digest('base64url');
  }
}
