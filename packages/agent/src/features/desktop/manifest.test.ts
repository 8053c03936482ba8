import { describe, expect, it } from 'vitest';
import { parseManifest, platformKey } from './manifest.ts';

const sha256 = 'AB'.repeat(32);
const manifestUrl = 'https://releases.example.com/desktop/latest.json';
const manifest = (assets: Record<string, unknown>, version = 'v1.4.0') => ({
  version,
  assets,
  notes: 'kept aside',
});

describe('the desktop release manifest', () => {
  it("finds this platform's build, its URL resolved against the manifest's", () => {
    const release = parseManifest(
      manifest({ 'linux-x64': { url: '1.4.0/binnacle-linux-x64', sha256, size: 10 } }),
      manifestUrl,
      'linux-x64',
    );
    expect(release).toEqual({
      version: '1.4.0',
      asset: {
        url: 'https://releases.example.com/desktop/1.4.0/binnacle-linux-x64',
        sha256: sha256.toLowerCase(),
        size: 10,
      },
    });
  });

  it('keeps absolute asset URLs and answers no asset for a platform it lacks', () => {
    const body = manifest({ 'darwin-arm64': { url: 'https://cdn.example.com/b', sha256, size: 1 } });
    expect(parseManifest(body, manifestUrl, 'darwin-arm64').asset?.url).toBe('https://cdn.example.com/b');
    expect(parseManifest(body, manifestUrl, 'win32-x64')).toEqual({ version: '1.4.0' });
  });

  it('names the platform key the way Node does', () => {
    expect(platformKey('linux', 'arm64')).toBe('linux-arm64');
    expect(platformKey()).toBe(`${process.platform}-${process.arch}`);
  });

  it.each([
    [{ assets: {} }, /is not a manifest: \/ .*version/],
    [manifest({}, 'latest'), /\/version must match pattern/],
    [manifest({ 'linux-x64': { url: 'x', sha256: 'abc', size: 1 } }), /\/assets\/linux-x64\/sha256/],
    [manifest({ 'linux-x64': { url: 'x', sha256, size: 0 } }), /\/assets\/linux-x64\/size/],
    [
      manifest({ 'linux-x64': { url: 'file:///bin/sh', sha256, size: 1 } }),
      /names a file URL at \/assets\/linux-x64\/url/,
    ],
    ['not an object', /is not a manifest/],
  ])('refuses %j naming the field', (body, message) => {
    expect(() => parseManifest(body, manifestUrl, 'linux-x64')).toThrow(message);
    try {
      parseManifest(body, manifestUrl, 'linux-x64');
    } catch (error) {
      expect(error).toMatchObject({ code: 'update_source_error', status: 502 });
    }
  });
});
