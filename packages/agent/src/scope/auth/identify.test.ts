import { describe, expect, it } from 'vitest';
import type { ProxySettings } from '../../config/auth-settings.ts';
import { proxyAddresses } from '../../config/proxy-addresses.ts';
import { proxyIdentity } from './identify.ts';

const settings: ProxySettings = {
  mode: 'proxy',
  userHeader: 'x-forwarded-user',
  groupsHeader: 'x-forwarded-groups',
  proxies: proxyAddresses('10.0.0.1'),
};

describe('proxy identity', () => {
  it('believes the headers from a trusted proxy, groups comma-split and trimmed', () => {
    expect(proxyIdentity(settings, { user: 'ada', groups: ' a, b ,,c' }, '10.0.0.1')).toEqual({
      user: 'ada',
      groups: ['a', 'b', 'c'],
    });
    expect(proxyIdentity(settings, { user: 'ada' }, '::ffff:10.0.0.1')).toEqual({ user: 'ada', groups: [] });
  });

  it('refuses identity headers from any other address with proxy_not_trusted', () => {
    expect(() => proxyIdentity(settings, { user: 'ada' }, '10.0.0.2')).toThrow(
      /not one of the trusted proxies/,
    );
    expect(() => proxyIdentity(settings, { groups: 'a' }, undefined)).toThrow(/unknown address/);
  });

  it('has nobody without a user header, or with a blank one (never an empty impersonated user)', () => {
    expect(proxyIdentity(settings, {}, '10.0.0.1')).toBeUndefined();
    expect(proxyIdentity(settings, {}, '10.0.0.2')).toBeUndefined();
    expect(proxyIdentity(settings, { user: '\u00a0 ', groups: 'a' }, '10.0.0.1')).toBeUndefined();
  });
});
