import { describe, expect, it } from 'vitest';
import { usernameOf } from './oidc-service.ts';

describe('the Kubernetes user of an ID token', () => {
  it('is the configured claim, verbatim', () => {
    expect(usernameOf({ email: 'ada@example.com', sub: 'x' }, 'email')).toBe('ada@example.com');
    expect(usernameOf({ preferred_username: 'Åsa Öberg' }, 'preferred_username')).toBe('Åsa Öberg');
  });

  it('fails the sign-in without a string claim', () => {
    for (const claims of [{}, { email: '' }, { email: ['ada'] }, { email: 7 }])
      expect(() => usernameOf(claims, 'email')).toThrow(/no "email" claim/);
  });

  it('fails the sign-in for a name the API server would trim into another user (or none)', () => {
    for (const name of [' system:admin', 'ada\t', '  ', '\u00a0'])
      expect(() => usernameOf({ name }, 'name'), JSON.stringify(name)).toThrow(/whitespace/);
  });
});
