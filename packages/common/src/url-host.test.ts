import { describe, expect, it } from 'vitest';
import { urlHost } from './url-host.ts';

describe('urlHost', () => {
  it('brackets IPv6 literals once and leaves names and IPv4 addresses alone', () => {
    expect(urlHost('fd00:10:244::7')).toBe('[fd00:10:244::7]');
    expect(urlHost('::1')).toBe('[::1]');
    expect(urlHost('[::1]')).toBe('[::1]');
    expect(urlHost('10.0.0.7')).toBe('10.0.0.7');
    expect(urlHost('hub.example.com')).toBe('hub.example.com');
  });
});
