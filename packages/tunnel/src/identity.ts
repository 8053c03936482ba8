import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** The header carrying the caller's identity from the hub to an agent, signed for that cluster. */
export const identityHeader = 'x-binnacle-identity';

/** Who the agent impersonates for a tunneled request (DESIGN §6.3): already-prefixed subjects. */
export interface ForwardedIdentity {
  user: string;
  groups: string[];
  /** The cluster the identity is for: a header captured for one cluster fails at another. */
  aud: string;
  /** Expiry, seconds since the epoch (a minute after signing). */
  exp: number;
}

/**
 * The signing key both sides know without sharing a new secret: SHA-256 of the cluster token. The hub keeps
 * exactly this hash; the agent computes it from its token. A pod that reaches the agent's port directly does
 * not have the token, so it cannot forge an identity; rotating the token changes the key.
 */
export const identityKey = (clusterToken: string) => createHash('sha256').update(clusterToken).digest('hex');

/** Key objects per key: building one from bytes costs more than the HMAC of a short header. */
const keys = new Map<string, KeyObject>();
const maxKeys = 10_000;

function keyObject(keyHex: string): KeyObject {
  let key = keys.get(keyHex);
  if (!key) {
    if (keys.size >= maxKeys) keys.clear();
    key = createSecretKey(Buffer.from(keyHex, 'hex'));
    keys.set(keyHex, key);
  }
  return key;
}

const mac = (keyHex: string, payload: string) =>
  createHmac('sha256', keyObject(keyHex)).update(payload).digest('base64url');

export function signIdentity(keyHex: string, identity: ForwardedIdentity): string {
  const payload = Buffer.from(JSON.stringify(identity)).toString('base64url');
  return `${payload}.${mac(keyHex, payload)}`;
}

/** The identity when the header is signed with this key, for this cluster, and not expired; else undefined. */
export function verifyIdentity(
  keyHex: string,
  header: string,
  clusterId: string,
  nowMs: number,
): ForwardedIdentity | undefined {
  const [payload, signature] = header.split('.');
  if (!payload || !signature) return undefined;
  const expected = Buffer.from(mac(keyHex, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let identity: ForwardedIdentity;
  try {
    identity = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ForwardedIdentity;
  } catch {
    return undefined;
  }
  if (identity.aud !== clusterId || typeof identity.exp !== 'number' || identity.exp * 1000 < nowMs)
    return undefined;
  if (typeof identity.user !== 'string' || !Array.isArray(identity.groups)) return undefined;
  return identity;
}
