import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.ts';

const hub = 'https://hub.example.com';

describe('sign-in return URL', () => {
  it('keeps paths on the hub', () => {
    expect(safeReturnTo('/c/abc/api/health?x=1#top', hub)).toBe('/c/abc/api/health?x=1#top');
    expect(safeReturnTo(undefined, hub)).toBe('/');
  });

  it('refuses every way out of the origin (no open redirect)', () => {
    for (const hostile of [
      '//evil.com',
      '/\\evil.com',
      '/%5Cevil.com',
      'https://evil.com',
      'javascript:alert(1)',
      '/%0d%0aSet-Cookie:x=1',
      '/\r\nSet-Cookie:x',
      'evil.com',
      '/%2F%2Fevil.com',
    ]) {
      expect(safeReturnTo(hostile, hub), hostile).toBe('/');
    }
  });
});
