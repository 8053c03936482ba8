import { describe, expect, it } from 'vitest';
import { safeReturn } from './return-to.ts';

describe('where a sign-in returns to', () => {
  it('is a path on the hub, with its query', () => {
    expect(safeReturn('/tokens')).toBe('/tokens');
    expect(safeReturn('/accept-invitation?token=bni_x')).toBe('/accept-invitation?token=bni_x');
  });

  it('is your start page for anything that would leave the hub, or nothing', () => {
    for (const elsewhere of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example/x',
      'evil.example',
      'javascript:alert(1)',
      '',
    ])
      expect(safeReturn(elsewhere)).toBe('/start');
    expect(safeReturn(undefined)).toBe('/start');
  });
});
