import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { AppError } from '@binnacle/common/server';
import { chunkDone } from './young-garbage.ts';

/** The two digest algorithms the OCI image spec registers; a reference with another is refused before any read. */
export const digestPattern = /^(sha256|sha512):([a-f0-9]{64}|[a-f0-9]{128})$/;

export const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

function algorithmOf(digest: string, label: string): { algorithm: string; expected: string } {
  const [, algorithm, expected] = digestPattern.exec(digest) ?? [];
  if (!algorithm || !expected)
    throw new AppError('registry_error', `${label}: ${digest} is not a sha256 or sha512 digest`);
  return { algorithm, expected };
}

/** Whether `bytes` hash to `digest`; an error naming `label` when they do not. */
export function verifyDigest(bytes: Buffer, digest: string, label: string): void {
  const { algorithm, expected } = algorithmOf(digest, label);
  if (createHash(algorithm).update(bytes).digest('hex') !== expected)
    throw new AppError('registry_error', `${label}: the bytes do not match ${digest}`);
}

/**
 * A stream that passes bytes through and fails at its end when they do not hash to `digest`: a registry or a
 * proxy that sends other bytes than the manifest names is caught, whether they go to disk or straight on.
 */
export function verifying(digest: string, label: string): Transform {
  const { algorithm, expected } = algorithmOf(digest, label);
  const hash = createHash(algorithm);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      chunkDone(chunk.length);
      done(null, chunk);
    },
    flush(done) {
      done(
        hash.digest('hex') === expected
          ? null
          : new AppError('registry_error', `${label}: the bytes do not match ${digest}`),
      );
    },
  });
}
