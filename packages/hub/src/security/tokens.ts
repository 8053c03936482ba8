import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(bytes: Uint8Array, width: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(width, '0');
}

function checksum(body: string): string {
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(body));
  return base62(sum, 6);
}

export type TokenPrefix = 'bnp' | 'bnc' | 'bni';

export interface MintedToken {
  /** Shown once, never stored. */
  token: string;
  /** SHA-256 (hex) of the token: what the database keeps. */
  hash: string;
  /** The last 4 characters, so people can tell tokens apart. */
  hint: string;
}

/**
 * A token as GitHub's format popularised: `<prefix>_` + 43 base62 characters (256 random bits) + 6 base62
 * characters of CRC32, so a typo or random text is refused without a database lookup and secret scanners can
 * recognise it. `bnp` personal access tokens, `bnc` cluster tokens, `bni` invitations.
 */
export function mintToken(prefix: TokenPrefix): MintedToken {
  const body = base62(randomBytes(32), 43);
  const token = `${prefix}_${body}${checksum(body)}`;
  return { token, hash: hashSecret(token), hint: token.slice(-4) };
}

/** True when the text has the shape and checksum of a token of that prefix. */
export function wellFormed(prefix: TokenPrefix, token: string): boolean {
  const match = new RegExp(`^${prefix}_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$`).exec(token);
  return Boolean(match && checksum(match[1] as string) === match[2]);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A session cookie value: 256 random bits, base64url. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function sameSecret(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
