import { AppError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { acceptedAudiences, mcpResourceOf, withChallenge } from './protected-resource.ts';

const hub = 'https://hub.example.com';

describe('the hub MCP resources', () => {
  it.each([
    ['/mcp', '/mcp'],
    ['/mcp?x=1', '/mcp'],
    ['/mcp/', '/mcp'],
    ['/c/abc-1/mcp', '/c/abc-1/mcp'],
    ['/c/abc-1/mcp?y', '/c/abc-1/mcp'],
    ['/c/abc-1/api/mcp', undefined],
    ['/mcp-readonly', '/mcp-readonly'],
    ['/c/abc-1/mcp-readonly?z', '/c/abc-1/mcp-readonly'],
    ['/mcp-readonlyx', undefined],
    ['/mcpx', undefined],
    ['/api/account', undefined],
  ])('%s belongs to %s', (url, resource) => {
    expect(mcpResourceOf(url)).toBe(resource);
  });

  it("accepts the organisation's audience everywhere and a cluster's on that cluster's MCP path only", () => {
    expect(acceptedAudiences(hub, '/api/account')).toEqual([`${hub}/mcp`]);
    expect(acceptedAudiences(hub, '/c/abc/mcp')).toEqual([`${hub}/mcp`, `${hub}/c/abc/mcp`]);
    expect(acceptedAudiences(hub, '/c/abc/api/pods')).toEqual([`${hub}/mcp`]);
    // A read-only endpoint's token is good there only, not on the full one.
    expect(acceptedAudiences(hub, '/mcp-readonly')).toEqual([`${hub}/mcp`, `${hub}/mcp-readonly`]);
    expect(acceptedAudiences(hub, '/mcp')).toEqual([`${hub}/mcp`]);
  });

  it('challenges with the metadata of the resource, and invalid_token with the reason when a token was offered', () => {
    const refused = new AppError('unauthenticated', 'the access token is "expired"');
    expect(withChallenge(refused, hub, '/c/abc/mcp', false).headers['WWW-Authenticate']).toBe(
      `Bearer resource_metadata="${hub}/.well-known/oauth-protected-resource/c/abc/mcp"`,
    );
    const challenged = withChallenge(refused, hub, '/api/clusters', true);
    expect(challenged).toMatchObject({ code: 'unauthenticated', status: 401, message: refused.message });
    expect(challenged.headers['WWW-Authenticate']).toBe(
      `Bearer resource_metadata="${hub}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="the access token is \\"expired\\""`,
    );
  });
});
