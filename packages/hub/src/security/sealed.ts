import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for values the hub must read back (IdP refresh tokens). The key is derived from the hub key per
 * purpose; the additional data binds a sealed value to its row, so it cannot be moved to another session.
 */
export class Sealer {
  readonly #key: Buffer;

  constructor(hubKey: Buffer, purpose: string) {
    this.#key = Buffer.from(hkdfSync('sha256', hubKey, Buffer.alloc(0), `binnacle ${purpose}`, 32));
  }

  seal(plaintext: string, additionalData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(additionalData));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      sealed.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  /** The plaintext, or undefined when the value was sealed with another key or for another row. */
  open(value: string, additionalData: string): string | undefined {
    const [version, iv, sealed, tag] = value.split('.');
    if (version !== 'v1' || !iv || !sealed || !tag) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(additionalData));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}
