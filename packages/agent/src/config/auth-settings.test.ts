import { UsageError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { type AgentConfig, configDefaults } from './agent-config.ts';
import { authSettings } from './auth-settings.ts';
import { proxyAddresses } from './proxy-addresses.ts';

const config = (extra: Partial<AgentConfig>): AgentConfig => ({ ...configDefaults(), ...extra });
const oidc = {
  authMode: 'oidc',
  oidcIssuer: 'https://idp.example',
  oidcClientId: 'agent',
  oidcRedirectUrl: 'https://binnacle.example/ops/auth/callback',
} as const;

describe('agent sign-in settings', () => {
  it('mode none needs nothing', () => {
    expect(authSettings(config({}), {})).toBeUndefined();
  });

  it('refuses proxy or oidc together with cloud mode', () => {
    const cloud = { cloudUrl: 'https://hub.example', clusterToken: 'bnc_x' };
    expect(() => authSettings(config({ ...cloud, authMode: 'proxy' }), {})).toThrow(/--cloud-url/);
    expect(() => authSettings(config({ ...cloud, ...oidc }), { BINNACLE_OIDC_CLIENT_SECRET: 's' })).toThrow(
      UsageError,
    );
  });

  it('proxy mode needs trusted addresses; header names are matched case-insensitively', () => {
    expect(() => authSettings(config({ authMode: 'proxy' }), {})).toThrow(/--auth-proxy-addresses/);
    const proxy = authSettings(
      config({ authMode: 'proxy', authProxyAddresses: '10.0.0.1', authUserHeader: 'X-Auth-Request-Email' }),
      {},
    );
    expect(proxy).toMatchObject({
      mode: 'proxy',
      userHeader: 'x-auth-request-email',
      groupsHeader: 'x-forwarded-groups',
    });
  });

  it('oidc mode names each missing setting, takes the secret from the variable, and derives the public URL', () => {
    expect(() => authSettings(config({ ...oidc, oidcIssuer: undefined }), {})).toThrow(/--oidc-issuer/);
    expect(() => authSettings(config({ ...oidc, oidcRedirectUrl: undefined }), {})).toThrow(
      /--oidc-redirect-url/,
    );
    expect(() => authSettings(config(oidc), {})).toThrow(/BINNACLE_OIDC_CLIENT_SECRET/);
    expect(() =>
      authSettings(config({ ...oidc, oidcRedirectUrl: 'https://b.example/callback' }), {
        BINNACLE_OIDC_CLIENT_SECRET: 's',
      }),
    ).toThrow(/ending in \/auth\/callback/);
    expect(
      authSettings(config({ ...oidc, oidcScopes: 'groups, offline_access' }), {
        BINNACLE_OIDC_CLIENT_SECRET: 's',
      }),
    ).toMatchObject({
      mode: 'oidc',
      clientSecret: 's',
      scopes: ['groups', 'offline_access'],
      publicUrl: 'https://binnacle.example/ops',
      usernameClaim: 'email',
      groupsClaim: 'groups',
    });
  });
});

describe('trusted proxy addresses', () => {
  it('takes addresses and CIDRs of both families, and IPv4 peers seen as IPv4-mapped IPv6', () => {
    const list = proxyAddresses('10.0.0.5, 10.1.0.0/16, fd00::/8');
    expect(list.check('10.0.0.5', 'ipv4')).toBe(true);
    expect(list.check('10.1.200.3', 'ipv4')).toBe(true);
    expect(list.check('10.2.0.1', 'ipv4')).toBe(false);
    expect(list.check('fd00::1', 'ipv6')).toBe(true);
    expect(proxyAddresses('::ffff:127.0.0.2').check('127.0.0.2', 'ipv4')).toBe(true);
  });

  it('refuses what is not an address or CIDR, naming the setting', () => {
    for (const bad of ['', 'proxy.example', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/x']) {
      expect(() => proxyAddresses(bad), bad).toThrow(/--auth-proxy-addresses/);
    }
  });
});
