import { describe, expect, it } from 'vitest';
import { hashSecret, mintToken, newSessionId, wellFormed } from './tokens.ts';

describe('tokens', () => {
  it('mints bnp_ tokens of 54 characters with a checksum, hashed for storage', () => {
    const { token, hash, hint } = mintToken('bnp');
    expect(token).toMatch(/^bnp_[0-9A-Za-z]{49}$/);
    expect(hash).toBe(hashSecret(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hint).toBe(token.slice(-4));
    expect(wellFormed('bnp', token)).toBe(true);
  });

  it('refuses a wrong prefix, a typo, a wrong length or a bad checksum', () => {
    const { token } = mintToken('bnc');
    const typo = `${token.slice(0, 10)}${token[10] === 'a' ? 'b' : 'a'}${token.slice(11)}`;
    expect(wellFormed('bnp', token)).toBe(false);
    expect(wellFormed('bnc', typo)).toBe(false);
    expect(wellFormed('bnc', `${token}x`)).toBe(false);
    expect(wellFormed('bnc', token.slice(0, -1))).toBe(false);
    expect(wellFormed('bnc', `bnc_${'0'.repeat(49)}`)).toBe(false);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => mintToken('bnp').token));
    expect(seen.size).toBe(1000);
    expect(newSessionId()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
