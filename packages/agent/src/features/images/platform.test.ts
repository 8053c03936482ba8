import { describe, expect, it } from 'vitest';
import { type IndexEntry, parsePlatform, pickManifest } from './platform.ts';

const entries: IndexEntry[] = [
  { digest: 'sha256:arm', platform: { os: 'linux', architecture: 'arm64', variant: 'v8' } },
  { digest: 'sha256:amd', platform: { os: 'linux', architecture: 'amd64' } },
  { digest: 'sha256:att', platform: { os: 'unknown', architecture: 'unknown' } },
];

describe('pickManifest', () => {
  it('picks by os and architecture, and by variant when one is asked for', () => {
    expect(pickManifest(entries, parsePlatform('linux/amd64'), 'app').digest).toBe('sha256:amd');
    expect(pickManifest(entries, parsePlatform('linux/arm64'), 'app').digest).toBe('sha256:arm');
    expect(pickManifest(entries, parsePlatform('linux/arm64/v8'), 'app').digest).toBe('sha256:arm');
  });

  it('answers 404 listing what the index offers, never an attestation', () => {
    expect(() => pickManifest(entries, parsePlatform('windows/amd64'), 'app')).toThrow(
      'app has no image for windows/amd64; it offers linux/arm64/v8, linux/amd64',
    );
  });

  it('refuses a platform that is not os/architecture[/variant]', () => {
    expect(() => parsePlatform('amd64')).toThrow('query parameter "platform"');
    expect(() => parsePlatform('linux/arm/v7/x')).toThrow('query parameter "platform"');
  });
});
