import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '@binnacle/common/server';

/** The trimmed content of a secret file a setting names; a missing file stops the hub naming the setting. */
export function secretFile(path: string, setting: string): string {
  if (!existsSync(path)) throw new UsageError(`${setting}: ${path} does not exist`);
  return readFileSync(path, 'utf8').trim();
}

/** Reads a key written as hex or base64; it must hold at least 32 bytes. */
export function decodeKey(text: string, setting: string): Buffer {
  const trimmed = text.trim();
  const key =
    /^[0-9a-fA-F]+$/.test(trimmed) && trimmed.length % 2 === 0
      ? Buffer.from(trimmed, 'hex')
      : Buffer.from(trimmed, 'base64');
  if (key.length < 32)
    throw new UsageError(`${setting}: the key must hold at least 32 bytes (64 hex or 44 base64 characters)`);
  return key;
}

/**
 * The hub key: the configured one, or — for a single hub on SQLite — one generated once and kept in the data
 * dir (mode 0600), so restarts keep sessions and encrypted data readable.
 */
export function loadSecretKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return decodeKey(configured, 'secretKey');
  const path = join(dataDir, 'secret.key');
  if (existsSync(path)) return decodeKey(readFileSync(path, 'utf8'), path);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
