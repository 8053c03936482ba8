import { describe, expect, it } from 'vitest';
import { compressible, negotiateCoding } from './compression.ts';

describe('negotiateCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=1', 'br'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['identity', 'identity'],
    ['deflate, zstd', 'identity'],
    ['BR;Q=0.9', 'br'],
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc', 'identity'],
    [['gzip', 'br;q=0.1'], 'gzip'],
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiateCoding(header as string | string[] | undefined)).toBe(coding);
  });
});

describe('compressible', () => {
  it.each([
    ['application/json; charset=utf-8', true],
    ['application/merge-patch+json', true],
    ['application/x-yaml; charset=utf-8', true],
    ['text/html; charset=utf-8', true],
    ['text/markdown', true],
    ['text/javascript; charset=utf-8', true],
    ['image/svg+xml', true],
    ['text/event-stream; charset=utf-8', false],
    ['application/x-tar', false],
    ['application/octet-stream', false],
    ['application/gzip', false],
    ['image/png', false],
    [undefined, false],
  ] as const)('%s → %s', (type, yes) => {
    expect(compressible(type)).toBe(yes);
  });
});
