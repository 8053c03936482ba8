import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** The header carrying the caller's identity from the hub to an agent, signed for that cluster. */
export const identityHeader = 'x-binnacle-identity';

/** Who the agent impersonates for a tunneled request (docs/architecture.md §6.3): already-prefixed subjects. */
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

/**
 * Signs identities for one side's requests, reusing the header signed for the same key, cluster and subjects
 * for `reuseSeconds`: the JSON and HMAC per request were a visible share of the hub's CPU under load
 * (ADR 0043). A reused header has at least `ttlSeconds - reuseSeconds` of its life left; a new key (token
 * rotated) or other subjects (role or groups changed) never match an older header.
 */
export class IdentitySigner {
  readonly #signed = new Map<string, { header: string; reuseUntil: number }>();
  readonly #ttlSeconds: number;
  readonly #reuseSeconds: number;

  constructor(ttlSeconds: number, reuseSeconds: number) {
    this.#ttlSeconds = ttlSeconds;
    this.#reuseSeconds = reuseSeconds;
  }

  sign(keyHex: string, subjects: { user: string; groups: string[] }, aud: string, nowMs: number): string {
    const now = Math.floor(nowMs / 1000);
    const key = `${keyHex}\n${aud}\n${subjects.user}\n${subjects.groups.join('\n')}`;
    const kept = this.#signed.get(key);
    if (kept && now < kept.reuseUntil) return kept.header;
    const header = signIdentity(keyHex, { ...subjects, aud, exp: now + this.#ttlSeconds });
    if (this.#signed.size >= maxKeys) this.#signed.clear();
    this.#signed.set(key, { header, reuseUntil: now + this.#reuseSeconds });
    return header;
  }
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
