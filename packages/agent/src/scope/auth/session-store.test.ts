import { describe, expect, it } from 'vitest';
import { type AuthSession, AuthSessionStore } from './session-store.ts';

const session = (extra: Partial<AuthSession> = {}): AuthSession => ({
  user: 'ada@example.com',
  groups: ['/ops'],
  idToken: 'ey.x.y',
  issuer: 'https://idp.example',
  subject: 'ada',
  sid: 'sid-1',
  expiresAt: 1_000,
  ...extra,
});

describe('agent sign-in sessions', () => {
  it('finds a session by its cookie value until it expires', () => {
    let now = 0;
    const store = new AuthSessionStore(() => now);
    const id = store.open(session());
    expect(id).toMatch(/^[\w-]{43}$/);
    expect(store.find(id)?.user).toBe('ada@example.com');
    expect(store.find('other')).toBeUndefined();
    now = 1_000;
    expect(store.find(id)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('back-channel logout ends the sessions of an IdP session, or of a user', () => {
    const store = new AuthSessionStore(() => 0);
    const first = store.open(session());
    const second = store.open(session({ sid: 'sid-2' }));
    const bob = store.open(session({ subject: 'bob', sid: 'sid-3' }));
    expect(store.endForIdp('https://idp.example', undefined, 'sid-1')).toBe(1);
    expect(store.find(first)).toBeUndefined();
    expect(store.endForIdp('https://other.example', 'ada', undefined)).toBe(0);
    expect(store.endForIdp('https://idp.example', 'ada', undefined)).toBe(1);
    expect(store.find(second)).toBeUndefined();
    expect(store.find(bob)).toBeDefined();
  });

  it('hands a pending sign-in out once, and remembers used logout tokens until they expire', () => {
    let now = 0;
    const store = new AuthSessionStore(() => now);
    const login = { nonce: 'n', codeVerifier: 'v', returnTo: '/', bindingHash: 'h', expiresAt: 10 };
    store.addPending('state', login);
    expect(store.takePending('state')).toEqual(login);
    expect(store.takePending('state')).toBeUndefined();
    expect(store.firstUseOfLogoutToken('jti', 10)).toBe(true);
    expect(store.firstUseOfLogoutToken('jti', 10)).toBe(false);
    now = 10;
    expect(store.firstUseOfLogoutToken('jti', 20)).toBe(true);
  });
});
